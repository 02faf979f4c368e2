package io.github.mobilemcp.sdk.testing;

import android.app.Application;

import io.github.mobilemcp.ErrorCode;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.ToolSettings;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import org.json.JSONException;
import org.json.JSONObject;
import org.junit.rules.ExternalResource;
import org.robolectric.shadows.ShadowLog;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Calls your tool service in a Robolectric test the way an on-device assistant does. {@link #call}
 * binds to the service and sends the Mobile-MCP request as a Message, with the caller named by its
 * Binder uid: binding mode, which capabilities that change something require, because Android
 * vouches for the caller there. The real engine runs, so what you test is what agents get: the descriptor's checks, consent, the
 * reply store and your handlers.
 *
 * <pre>{@code
 * @RunWith(McpTestRunner.class)
 * public class NotesToolTest {
 *     @Rule public final McpToolRule tool = new McpToolRule(NotesToolService.class);
 *
 *     @Test public void createsANote() throws Exception {
 *         Reply reply = tool.call("create_note", "{\"title\":\"Milk\"}");
 *         assertTrue(reply.isSuccess());
 *         assertEquals(1L, reply.getLong("id"));
 *     }
 * }
 * }</pre>
 *
 * In Kotlin: {@code @get:Rule val tool = McpToolRule(NotesToolService::class.java)}.
 *
 * <p>The caller is your own app's package unless {@link #callAs} names another, which the rule
 * installs ({@link InstalledApps}), and the user has allowed it, unless you ask for
 * {@link #withoutConsent()}. The consent is recorded just before the first request, or when the
 * test first asks for {@link #settings()}, so a test may still change what the engine reads when it
 * opens (a debuggable build) until then. Each call waits up to 10 seconds for the reply, and fails
 * the test when there is none or more than one. When a handler throws, the caller gets a fixed
 * internal_error, as on a device, and the rule prints the exception with the test's output.
 *
 * <p>Threads (Robolectric's default PAUSED looper mode): the test thread is the main thread, and
 * nothing posted to the main looper runs until the test idles it; a reply is such a post. The
 * tool's workers run in real time on their own threads. So waiting means: idle the main looper,
 * check, sleep a little, repeat ({@link #idleUntil}).
 */
public final class McpToolRule extends ExternalResource {
    private final WireRule wire;

    /** A rule that calls serviceClass, which your manifest declares. */
    public McpToolRule(Class<? extends McpToolService> serviceClass) {
        wire = new WireRule(serviceClass);
    }

    /** The caller starts without the user's consent, as a new assistant does. */
    public McpToolRule withoutConsent() {
        wire.withoutConsent();
        return this;
    }

    /**
     * Declares the service as your manifest would declare a Mobile-MCP tool service (exported, with
     * descriptorResource, such as {@code R.xml.broken_capabilities}, as its capabilities, and the
     * app's label as its tool name), for a test service that the manifest does not declare: one
     * that misbehaves on purpose, or the same tool on another descriptor. Without it, the rule
     * calls the service as the manifest declares it.
     */
    public McpToolRule withDescriptor(int descriptorResource) {
        wire.withDescriptor(descriptorResource);
        return this;
    }

    /** Gives every capability this deadline instead of its mcp:timeout, to test the timeout path quickly. */
    public McpToolRule withTimeoutMillis(long millis) {
        wire.withTimeoutMillis(millis);
        return this;
    }

    @Override
    protected void before() {
        wire.open();
    }

    /** Destroys the services the rule made, as Android would after their last stopSelf. */
    @Override
    protected void after() {
        wire.close();
    }

    /** The application under test: your app, which is also the caller unless a call names another. */
    public Application app() {
        return wire.app();
    }

    /** Your tool, to change the user's decisions between calls. Records the rule's consent first. */
    public ToolSettings settings() {
        return wire.settings();
    }

    /**
     * Calls capabilityId with arguments given as a JSON object, such as {@code {"title":"Milk"}},
     * over binding mode from your own app, under a fresh request id, and returns the one reply,
     * failures included. Throws a JSONException when argsJson is not a JSON object, and fails the
     * test (AssertionError) when no reply or more than one comes within 10 seconds. Main (test)
     * thread.
     */
    public Reply call(String capabilityId, String argsJson) throws JSONException {
        return shown(wire.call(capabilityId, argsJson));
    }

    /**
     * Calls capabilityId with args, JSON-compatible values by argument name (strings, numbers,
     * booleans, maps, lists, JSONObject, JSONArray), as {@link #call(String, String)} does:
     * {@code tool.call("create_note", Map.of("title", "Milk"))}.
     */
    public Reply call(String capabilityId, Map<String, ?> args) throws JSONException {
        return shown(wire.call(capabilityId, new JSONObject(args).toString()));
    }

    /** Calls capabilityId with args, as {@link #call(String, String)} does. */
    public Reply call(String capabilityId, JSONObject args) throws JSONException {
        return shown(wire.call(capabilityId, args.toString()));
    }

    /**
     * reply, after printing to the test's error output the exception behind it when it is the
     * internal_error of a handler that threw: the caller reads only that the handler threw, while
     * the developer needs the exception, which the tool logged (McpToolService.LOG_TAG).
     */
    private static Reply shown(Reply reply) {
        if (reply.errorCode() != ErrorCode.INTERNAL_ERROR || reply.id() == null) {
            return reply;
        }
        for (ShadowLog.LogItem item : ShadowLog.getLogsForTag(McpToolService.LOG_TAG)) {
            if (item.throwable != null && item.msg.endsWith(", for request " + reply.id())) {
                System.err.println("McpToolRule: " + reply.capabilityId() + " answered internal_error because " + item.msg + ":");
                item.throwable.printStackTrace();
            }
        }
        return reply;
    }

    /**
     * Calls capabilityId as the app callerPackage, over binding mode: the Message comes from a
     * Binder uid that the PackageManager names callerPackage, as on a device. Returns and throws
     * as {@link #call} does.
     */
    public Reply callAs(String callerPackage, String capabilityId, String argsJson) throws JSONException {
        return shown(wire.callAs(callerPackage, capabilityId, argsJson));
    }

    /** Calls capabilityId as the app callerPackage with args, as {@link #call(String, Map)} takes them. */
    public Reply callAs(String callerPackage, String capabilityId, Map<String, ?> args) throws JSONException {
        return shown(wire.callAs(callerPackage, capabilityId, new JSONObject(args).toString()));
    }

    /**
     * Waits for future, an agent library's pending call (such as a client library's
     * {@code Request.send()}), while playing Android's part: Robolectric records
     * startForegroundService instead of starting anything and binds only to a binder it was given,
     * so this hands every recorded start to one instance of the service and lets bindService reach
     * it. Returns the future's value, and fails the test after 10 seconds.
     */
    public <T extends @Nullable Object> T await(Future<T> future) throws ExecutionException, InterruptedException {
        return wire.await(future);
    }

    /** Idles the main looper until cond holds, failing the test after 10 seconds. */
    public static void idleUntil(String what, BooleanSupplier cond) {
        WireRule.idleUntil(what, cond);
    }
}

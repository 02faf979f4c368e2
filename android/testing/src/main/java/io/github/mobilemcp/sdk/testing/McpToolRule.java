package io.github.mobilemcp.sdk.testing;

import static org.robolectric.Shadows.shadowOf;

import android.app.Application;
import android.app.PendingIntent;
import android.content.BroadcastReceiver;
import android.content.ComponentName;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.os.Looper;

import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.McpTool;
import io.github.mobilemcp.sdk.McpToolService;

import org.json.JSONException;
import org.json.JSONObject;
import org.junit.rules.ExternalResource;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ServiceController;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

/**
 * Calls your tool service in a Robolectric test the way an on-device assistant does: a Mobile-MCP
 * request in an Intent extra, a mutable PendingIntent for the reply, and the service started as
 * {@code startForegroundService} would start it. The real engine runs, so what you test is what
 * agents get: the descriptor's checks, consent, the reply store and your handlers.
 *
 * <pre>{@code
 * @RunWith(McpTestRunner.class)
 * public class NotesToolTest {
 *     @Rule public final McpToolRule tool = new McpToolRule(NotesToolService.class);
 *
 *     @Test public void createsANote() throws Exception {
 *         Reply reply = tool.call("create_note", "{\"title\":\"Milk\"}");
 *         assertEquals("success", reply.status());
 *         assertEquals(1L, reply.outputs().get("id"));
 *     }
 * }
 * }</pre>
 *
 * <p>The caller is your own app's package unless {@link #callAs} names another, and the user has
 * allowed it, unless you ask for {@link #withoutConsent()}. Each call waits up to ten seconds for
 * the reply, and fails the test when there is none or more than one.
 */
public final class McpToolRule extends ExternalResource {
    private static final String REPLY_ACTION = "io.github.mobilemcp.sdk.testing.REPLY";
    private static final long WAIT_MILLIS = 10_000;

    private final Class<? extends McpToolService> serviceClass;
    private boolean consent = true;
    private long timeoutMillis;
    private Application app;
    private final List<Intent> replies = new ArrayList<>();
    private final List<ServiceController<? extends McpToolService>> started = new ArrayList<>();
    private int requestCode;
    /** The service agents reach through startForegroundService or bindService; see await. */
    private ServiceController<? extends McpToolService> hosted;
    private int hostedStarts;

    /** A rule that calls serviceClass, which your manifest declares. */
    public McpToolRule(Class<? extends McpToolService> serviceClass) {
        this.serviceClass = serviceClass;
    }

    /** The caller starts without the user's consent, as a new assistant does. */
    public McpToolRule withoutConsent() {
        consent = false;
        return this;
    }

    /** Gives every capability this deadline instead of its mcp:timeout, to test the timeout path quickly. */
    public McpToolRule withTimeoutMillis(long millis) {
        timeoutMillis = millis;
        return this;
    }

    @Override
    protected void before() {
        app = RuntimeEnvironment.getApplication();
        if (timeoutMillis > 0) {
            McpTool.setTimeoutOverrideForTests(app, timeoutMillis);
        }
        if (consent) {
            tool().allow(app.getPackageName());
        }
        app.registerReceiver(new BroadcastReceiver() {
            @Override
            public void onReceive(Context context, Intent intent) {
                replies.add(intent);
            }
        }, new IntentFilter(REPLY_ACTION), Context.RECEIVER_NOT_EXPORTED);
    }

    @Override
    protected void after() {
        for (ServiceController<? extends McpToolService> s : started) {
            s.destroy();
        }
        if (hosted != null) {
            hosted.destroy();
        }
    }

    /**
     * Waits for future, an agent library's pending call (such as the client library's
     * {@code invoke}), while playing Android's part: Robolectric records startForegroundService
     * instead of starting anything and binds only to a binder it was given, so this hands every
     * recorded start to one instance of the service and lets bindService reach it. Returns the
     * future's value, and fails the test after ten seconds.
     */
    public <T> T await(Future<T> future) throws ExecutionException, InterruptedException {
        host();
        idleUntil("the agent's call", () -> {
            pump();
            return future.isDone();
        });
        return future.get();
    }

    /** Creates the hosted service and offers its binder to bindService. */
    private void host() {
        if (hosted != null) {
            return;
        }
        hosted = Robolectric.buildService(serviceClass).create();
        ComponentName component = new ComponentName(app, serviceClass);
        shadowOf(app).setComponentNameAndServiceForBindService(component,
                hosted.get().onBind(new Intent("mobile.mcp.SERVICE").setComponent(component)));
    }

    /** Hands the starts recorded so far to the hosted service; bindService records extra-less ones. */
    private void pump() {
        for (Intent start = shadowOf(app).getNextStartedService(); start != null; start = shadowOf(app).getNextStartedService()) {
            if (start.getExtras() != null) {
                hosted.withIntent(start).startCommand(0, ++hostedStarts);
            }
        }
    }

    /** Your tool, to change the user's decisions between calls. */
    public McpTool tool() {
        return McpTool.get(app);
    }

    /** Calls capabilityId with arguments given as a JSON object, such as {@code {"title":"Milk"}}. */
    public Reply call(String capabilityId, String argsJson) throws JSONException {
        return callAs(app.getPackageName(), capabilityId, argsJson);
    }

    /** Calls capabilityId as the app callerPackage, as if that app had created the callback. */
    public Reply callAs(String callerPackage, String capabilityId, String argsJson) throws JSONException {
        JSONObject request = new JSONObject().put("mobile-mcp-request", new JSONObject()
                .put("version", "1.0")
                .put("request", new JSONObject()
                        .put("id", UUID.randomUUID().toString())
                        .put("capability", new JSONObject().put("id", capabilityId).put("args", new JSONObject(argsJson)))));
        Intent reply = send(callerPackage, "mobile-mcp-request", request.toString(), "mobile-mcp-callback");
        return Reply.fromJson(reply.getStringExtra("mobile-mcp-response"));
    }

    /**
     * Sends any request JSON, in any shape, as it is: under the Mobile-MCP spec's extras, or under
     * the prototype agent's ({@code request} and {@code mcp_callback}) when prototypeExtras is true.
     * Returns the reply Intent, whose extras are what an agent reads.
     */
    public Intent send(String requestJson, boolean prototypeExtras) {
        return prototypeExtras
                ? send(app.getPackageName(), "request", requestJson, "mcp_callback")
                : send(app.getPackageName(), "mobile-mcp-request", requestJson, "mobile-mcp-callback");
    }

    private Intent send(String callerPackage, String requestExtra, String requestJson, String callbackExtra) {
        PendingIntent callback = PendingIntent.getBroadcast(app, ++requestCode,
                new Intent(REPLY_ACTION).setPackage(app.getPackageName()), PendingIntent.FLAG_MUTABLE);
        shadowOf(callback).setCreatorPackage(callerPackage);
        return start(new Intent("mobile.mcp.SERVICE")
                .setClass(app, serviceClass)
                .putExtra(requestExtra, requestJson)
                .putExtra(callbackExtra, callback));
    }

    /**
     * Starts the service with intent, as Android would, and returns the one reply broadcast.
     * Use it for Intents you build yourself.
     */
    public Intent start(Intent intent) {
        int before = replies.size();
        started.add(Robolectric.buildService(serviceClass, intent).create().startCommand(0, started.size() + 1));
        idleUntil("the reply", () -> replies.size() > before);
        idle(); // a second reply would have arrived by now
        if (replies.size() != before + 1) {
            throw new AssertionError("the tool sent " + (replies.size() - before) + " replies to one request");
        }
        return replies.get(before);
    }

    /** Idles the main looper until cond holds, failing the test after ten seconds. */
    public static void idleUntil(String what, BooleanSupplier cond) {
        long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        while (true) {
            idle();
            if (cond.getAsBoolean()) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for " + what, e);
            }
        }
    }

    private static void idle() {
        shadowOf(Looper.getMainLooper()).idle();
    }
}

package io.github.mobilemcp.sdk.testing;

import static org.robolectric.Shadows.shadowOf;

import android.app.Application;
import android.app.PendingIntent;
import android.content.BroadcastReceiver;
import android.content.ComponentName;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.content.pm.ServiceInfo;
import android.os.Bundle;
import android.os.IBinder;
import android.os.Looper;

import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.McpTool;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.McpToolService;

import org.json.JSONException;
import org.json.JSONObject;
import org.junit.rules.ExternalResource;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ServiceController;

import java.util.ArrayList;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;

import org.jspecify.annotations.Nullable;

/**
 * Calls your tool service in a Robolectric test the way an on-device assistant does. {@link #call}
 * binds to the service and sends the Mobile-MCP request as a Message, with the caller named by its
 * Binder uid: binding mode, which capabilities that change something require, because Android
 * vouches for the caller there. {@link #send} and {@link #start} send an Intent with a mutable
 * PendingIntent for the reply, the service started as {@code startForegroundService} would start
 * it: intent mode, where only read-only capabilities run (the others get permission_denied). The
 * real engine runs, so what you test is what agents get: the descriptor's checks, consent, the
 * reply store and your handlers.
 *
 * <pre>{@code
 * @RunWith(McpTestRunner.class)
 * public class NotesToolTest {
 *     @Rule public final McpToolRule tool = new McpToolRule(NotesToolService.class);
 *
 *     @Test public void createsANote() throws Exception {
 *         Reply reply = tool.call("create_note", "{\"title\":\"Milk\"}");
 *         assertEquals("success", reply.status());
 *         assertEquals(1L, reply.getLong("id"));
 *     }
 * }
 * }</pre>
 *
 * <p>The caller is your own app's package unless {@link #callAs} names another, which the rule
 * installs ({@link InstalledApps}), and the user has
 * allowed it, unless you ask for {@link #withoutConsent()}. Each call waits up to ten seconds for
 * the reply, and fails the test when there is none or more than one.
 */
public final class McpToolRule extends ExternalResource {
    private static final String REPLY_ACTION = "io.github.mobilemcp.sdk.testing.REPLY";
    private static final long WAIT_MILLIS = 10_000;

    private final Class<? extends McpToolService> serviceClass;
    private boolean consent = true;
    private long timeoutMillis;
    /** The descriptor resource to declare serviceClass with, or 0 when the manifest declares it. */
    private int descriptor;
    private Application app;
    private final List<Intent> replies = new ArrayList<>();
    private final List<ServiceController<? extends McpToolService>> started = new ArrayList<>();
    private int requestCode;
    /** The service agents reach through startForegroundService or bindService; see await. */
    private @Nullable ServiceController<? extends McpToolService> hosted;
    private int hostedStarts;
    /** Binding mode to the hosted service, and the replies that came back. */
    private @Nullable ToolBinding binding;
    private final List<Bundle> boundReplies = new CopyOnWriteArrayList<>();

    /** A rule that calls serviceClass, which your manifest declares. */
    public McpToolRule(Class<? extends McpToolService> serviceClass) {
        this.serviceClass = serviceClass;
    }

    /** The caller starts without the user's consent, as a new assistant does. */
    public McpToolRule withoutConsent() {
        consent = false;
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
        descriptor = descriptorResource;
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
        // The user's decisions are kept with the caller's signing certificate.
        InstalledApps.sign(app, app.getPackageName(), "the certificate of " + app.getPackageName());
        if (timeoutMillis > 0) {
            EngineAccess.setTimeoutMillis(app, timeoutMillis);
        }
        if (descriptor != 0) {
            declareService();
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

    /** Adds serviceClass to the PackageManager as a manifest entry with descriptor would. */
    private void declareService() {
        ServiceInfo info = new ServiceInfo();
        info.packageName = app.getPackageName();
        info.name = serviceClass.getName();
        info.exported = true;
        info.applicationInfo = app.getApplicationInfo();
        String label = String.valueOf(app.getApplicationInfo().loadLabel(app.getPackageManager()));
        info.metaData = new Bundle();
        info.metaData.putString("mobile.mcp.tool.name", label);
        info.metaData.putString("mobile.mcp.tool.description", label + ", declared by a test");
        info.metaData.putInt("mobile.mcp.tool.capabilities", descriptor);
        shadowOf(app.getPackageManager()).addOrUpdateService(info);
    }

    @Override
    protected void after() {
        for (ServiceController<? extends McpToolService> s : started) {
            s.destroy();
        }
        if (hosted != null) {
            hosted.destroy();
        }
        if (binding != null) {
            binding.close();
        }
    }

    /**
     * Waits for future, an agent library's pending call (such as the client library's
     * {@code invoke}), while playing Android's part: Robolectric records startForegroundService
     * instead of starting anything and binds only to a binder it was given, so this hands every
     * recorded start to one instance of the service and lets bindService reach it. Returns the
     * future's value, and fails the test after ten seconds.
     */
    public <T extends @Nullable Object> T await(Future<T> future) throws ExecutionException, InterruptedException {
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
        IBinder binder = hosted.get().onBind(new Intent("mobile.mcp.SERVICE").setComponent(component));
        shadowOf(app).setComponentNameAndServiceForBindService(component, binder);
        binding = new ToolBinding(app, binder, boundReplies::add);
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

    /**
     * Calls capabilityId as the app callerPackage, over binding mode: the Message comes from a
     * Binder uid that the PackageManager names callerPackage, as on a device.
     */
    public Reply callAs(String callerPackage, String capabilityId, String argsJson) throws JSONException {
        JSONObject request = new JSONObject().put("mobile-mcp-request", new JSONObject()
                .put("version", "1.0")
                .put("request", new JSONObject()
                        .put("id", UUID.randomUUID().toString())
                        .put("capability", new JSONObject().put("id", capabilityId).put("args", new JSONObject(argsJson)))));
        return Reply.fromJson(bound(callerPackage, "mobile-mcp-request", request.toString()).getString("mobile-mcp-response"));
    }

    /**
     * Sends any request JSON, in any shape, as it is, over binding mode from your own app: under the
     * Mobile-MCP spec's key, or the prototype agent's ({@code request}) when prototypeExtras is
     * true. Returns the reply Message's data, which holds the extras an Intent reply would.
     */
    public Bundle sendBound(String requestJson, boolean prototypeExtras) {
        return bound(app.getPackageName(), prototypeExtras ? "request" : "mobile-mcp-request", requestJson);
    }

    /**
     * Sends requestJson to the hosted service as a binding Message from callerPackage's uid, and
     * returns the data of the one reply Message.
     */
    private Bundle bound(String callerPackage, String requestKey, String requestJson) {
        host();
        int before = boundReplies.size();
        binding.send(callerPackage, requestKey, requestJson);
        idleUntil("the reply", () -> boundReplies.size() > before);
        idle(); // a second reply would have arrived by now
        if (boundReplies.size() != before + 1) {
            throw new AssertionError("the tool sent " + (boundReplies.size() - before) + " replies to one request");
        }
        return boundReplies.get(before);
    }


    /**
     * Sends any request JSON, in any shape, as it is, in an Intent: under the Mobile-MCP spec's
     * extras, or under the prototype agent's ({@code request} and {@code mcp_callback}) when
     * prototypeExtras is true. Returns the reply Intent, whose extras are what an agent reads. In an
     * Intent, a capability that is not read-only gets permission_denied; see {@link #sendBound}.
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

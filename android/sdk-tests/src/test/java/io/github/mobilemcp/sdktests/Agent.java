package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.robolectric.Shadows.shadowOf;

import android.app.Application;
import android.app.PendingIntent;
import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.os.Build;
import android.os.Handler;
import android.os.Looper;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.McpTool;
import io.github.mobilemcp.sdk.testing.InstalledApps;
import io.github.mobilemcp.sdk.testing.ToolBinding;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;

import org.json.JSONObject;
import org.junit.rules.ExternalResource;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ServiceController;

/**
 * Plays an on-device agent in tests of the test tool, at the level of Intents and Messages: it
 * starts TestToolService as an agent does, binds to it, and collects the replies. A JUnit rule
 * ({@code @Rule public final Agent agent = new Agent();}): after each test it destroys the services
 * it made, as Android would after the service's last stopSelf, and opens the {@link Gate}.
 *
 * <p>The agent is this app itself: its callbacks are PendingIntents this app creates, so the tool
 * sees the caller io.github.mobilemcp.sdktests. An Intent runs only read-only capabilities;
 * {@code record} goes by binding ({@link #bind}, {@link #bindAs}), where the caller is the package
 * of the Binder uid, and the PackageManager knows each caller's signing certificate
 * ({@code InstalledApps}). Unless made {@link #withoutConsent()}, the agent has the user's consent,
 * recorded with the SDK's {@link McpTool} just before its first request, so a test can still
 * configure the tool (a short deadline, a debuggable build) before its engine opens.
 *
 * <p>Threads (Robolectric's default PAUSED looper mode): the test thread is the main thread, and
 * nothing posted to the main looper runs until the test idles it; the reply broadcast is such a
 * post. The service's workers run in real time on their own threads. So waiting means: idle the
 * main looper, check, sleep a little, repeat.
 */
final class Agent extends ExternalResource {
    static final String APP = "io.github.mobilemcp.sdktests";
    static final String REPLY_ACTION = "io.github.mobilemcp.sdktests.REPLY";
    static final long WAIT_MILLIS = 10_000;

    /**
     * The SDK's notification ids and channels: the foreground notification's ("mcp1") and the
     * consent question's ("mcp2", tagged with the calling package).
     */
    static final int FOREGROUND_NOTIFICATION_ID = 0x6d637031;
    static final String FOREGROUND_CHANNEL = "mobilemcp_requests";
    static final int CONSENT_NOTIFICATION_ID = 0x6d637032;
    static final String CONSENT_CHANNEL = "mobilemcp_consent";

    final Application app = RuntimeEnvironment.getApplication();
    /** Reply broadcasts, and binding replies as Intents, in arrival order. Main (test) thread only. */
    final List<Intent> replies = new ArrayList<>();
    private ServiceController<? extends TestToolService> service;
    private boolean consent = true;
    private ServiceController<TestToolService> bound;
    private ToolBinding binding;
    /** The start ids deliver has used. */
    private int deliveries;

    Agent() {
        BroadcastReceiver receiver = new BroadcastReceiver() {
            @Override
            public void onReceive(Context context, Intent intent) {
                replies.add(intent);
            }
        };
        if (Build.VERSION.SDK_INT >= 26) { // the flags parameter; NOT_EXPORTED is enforced from 33
            app.registerReceiver(receiver, new IntentFilter(REPLY_ACTION), Context.RECEIVER_NOT_EXPORTED);
        } else {
            app.registerReceiver(receiver, new IntentFilter(REPLY_ACTION));
        }
        // The user's decisions are kept with the caller's signing certificate.
        InstalledApps.sign(app, app.getPackageName(), "the certificate of " + app.getPackageName());
    }

    /** An agent the user has not allowed yet. */
    static Agent withoutConsent() {
        Agent agent = new Agent();
        agent.consent = false;
        return agent;
    }

    @Override
    protected void before() {
        Gate.close();
    }

    @Override
    protected void after() {
        Gate.open();
        stop();
        if (bound != null) {
            bound.destroy();
            binding.close();
        }
    }

    /** The app's tool, as the SDK keeps it for the process: the user's decisions, the developer switch. */
    McpTool tool() {
        return McpTool.get(app);
    }

    /** The tool's engine, for what only it tells: the decisions as it keeps them, with their signers. */
    Bridge engine() {
        return EngineAccess.bridge(app);
    }

    /** The texts the record capability has recorded. */
    List<String> recorded() {
        return new Records(app).all();
    }

    /** A request in the specification's shape, with arguments under args. */
    static String specRequest(String id, String capability, String argsJson) {
        return "{\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{\"id\":\"" + id
                + "\",\"capability\":{\"id\":\"" + capability + "\",\"args\":" + argsJson + "}}}}";
    }

    /**
     * A failure reply in the specification's layout, as the engine writes it: id and capability
     * are left out of it when null, and message is JSON-quoted here.
     */
    static String failureReply(String id, String capability, String message, String errorCode) {
        return "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":"
                + (id == null ? "null" : JSONObject.quote(id))
                + (capability == null ? "" : ",\"capability\":{\"id\":" + JSONObject.quote(capability) + "}")
                + ",\"status\":\"failure\",\"message\":" + JSONObject.quote(message)
                + ",\"error_code\":\"" + errorCode + "\"}}}";
    }

    /** The reply to a record call that left count texts recorded. */
    static String recordedReply(String id, int count) {
        return "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"" + id + "\","
                + "\"capability\":{\"id\":\"record\",\"output\":[{\"name\":\"count\",\"type\":\"integer\",\"value\":" + count + "}]},"
                + "\"status\":\"success\",\"message\":\"Recorded\"}}}";
    }

    /**
     * The reply to an inspect call with only the argument text, from caller: what the handler was
     * given and told, every optional argument at its default.
     */
    static String inspectedReply(String id, String text, String caller) {
        return "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"" + id + "\","
                + "\"capability\":{\"id\":\"inspect\",\"output\":["
                + "{\"name\":\"text\",\"type\":\"string\",\"value\":" + JSONObject.quote(text) + "},"
                + "{\"name\":\"length\",\"type\":\"integer\",\"value\":" + text.length() + "},"
                + "{\"name\":\"count\",\"type\":\"integer\",\"value\":7},"
                + "{\"name\":\"ratio\",\"type\":\"number\",\"value\":0.5},"
                + "{\"name\":\"flag\",\"type\":\"boolean\",\"value\":false},"
                + "{\"name\":\"options\",\"type\":\"object\",\"value\":{}},"
                + "{\"name\":\"tags\",\"type\":\"array\",\"value\":[]},"
                + "{\"name\":\"given\",\"type\":\"array\",\"value\":[\"text\"]},"
                + "{\"name\":\"call\",\"type\":\"object\",\"value\":{\"capability\":\"inspect\",\"request_id\":\"" + id
                + "\",\"caller\":" + JSONObject.quote(caller) + "}},"
                + "{\"name\":\"in_time\",\"type\":\"boolean\",\"value\":true}]},"
                + "\"status\":\"success\",\"message\":\"Inspected inspect\"}}}";
    }

    /** The reply to a hold call named name. */
    static String heldReply(String id, String name) {
        return "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"" + id + "\","
                + "\"capability\":{\"id\":\"hold\",\"output\":[{\"name\":\"name\",\"type\":\"string\",\"value\":" + JSONObject.quote(name) + "}]},"
                + "\"status\":\"success\",\"message\":" + JSONObject.quote("Held " + name) + "}}}";
    }

    /**
     * The agent's callback. Mutable, or the reply could not be filled in; explicit (setPackage),
     * as Android 14 requires of mutable PendingIntents.
     */
    PendingIntent callback(int flags) {
        return PendingIntent.getBroadcast(app, 0, new Intent(REPLY_ACTION).setPackage(app.getPackageName()), flags);
    }

    /**
     * The Intent of a specification request as another app would send it: its callback (request
     * code requestCode, so that it is a PendingIntent of its own) claims creator as its creator
     * package, which is what the tool takes for the caller.
     */
    Intent specIntentFrom(String creator, int requestCode, String requestJson) {
        PendingIntent callback = PendingIntent.getBroadcast(app, requestCode,
                new Intent(REPLY_ACTION).setPackage(app.getPackageName()), PendingIntent.FLAG_MUTABLE);
        shadowOf(callback).setCreatorPackage(creator);
        return new Intent(Intentbridge.ServiceAction)
                .setClassName(app, TestToolService.class.getName())
                .putExtra(Intentbridge.ExtraRequest, requestJson)
                .putExtra(Intentbridge.ExtraCallback, callback);
    }

    /** The Intent of a specification request with a mutable callback. */
    Intent specIntent(String requestJson) {
        return new Intent(Intentbridge.ServiceAction)
                .setClassName(app, TestToolService.class.getName())
                .putExtra(Intentbridge.ExtraRequest, requestJson)
                .putExtra(Intentbridge.ExtraCallback, callback(PendingIntent.FLAG_MUTABLE));
    }

    /** The Intent of a specification request without a callback, as adb's am sends it. */
    Intent noCallbackIntent(String requestJson) {
        return new Intent()
                .setClassName(app, TestToolService.class.getName())
                .putExtra(Intentbridge.ExtraRequest, requestJson);
    }

    /** Starts TestToolService with a specification request, as startForegroundService would. */
    ServiceController<? extends TestToolService> start(String requestJson) {
        return start(specIntent(requestJson));
    }

    /** Starts TestToolService with intent, after destroying a service this agent started before. */
    ServiceController<? extends TestToolService> start(Intent intent) {
        stop();
        consentOnce();
        service = Robolectric.buildService(TestToolService.class, intent).create().startCommand(0, 1);
        return service;
    }

    private void consentOnce() {
        if (consent) {
            tool().allow(app.getPackageName());
            consent = false; // once is enough; a test may revoke it
        }
    }

    /**
     * Sends a specification request in binding mode, as this app: a Message to TestToolService's
     * Messenger. The reply Message's data arrives in {@link #replies} as the extras of an Intent,
     * as an Intent reply's would, so awaitReply and awaitSpecReply read it.
     */
    void bind(String requestJson) {
        bindAs(app.getPackageName(), Intentbridge.ExtraRequest, requestJson);
    }

    /**
     * Sends requestJson under requestExtra (the specification's, or the prototype's "request") in
     * binding mode from the uid that the PackageManager names caller.
     */
    void bindAs(String caller, String requestExtra, String requestJson) {
        consentOnce();
        boundService();
        binding.send(caller, requestExtra, requestJson);
    }

    /**
     * Starts the service this agent binds to with intent, as Android delivers a
     * startForegroundService to a tool service that runs already: one instance serves both
     * transports. The reply, through the Intent's callback, arrives in {@link #replies}.
     */
    void deliver(Intent intent) {
        consentOnce();
        boundService().withIntent(intent).startCommand(0, ++deliveries);
    }

    /** The service bindAs and deliver reach, created and bound on first use. */
    private ServiceController<TestToolService> boundService() {
        if (bound == null) {
            bound = Robolectric.buildService(TestToolService.class).create();
            Handler main = new Handler(Looper.getMainLooper());
            binding = new ToolBinding(app, bound.get().onBind(new Intent(Intentbridge.ServiceAction)),
                    data -> main.post(() -> replies.add(new Intent().putExtras(data)))); // replies belongs to the main thread
        }
        return bound;
    }

    /** Sends a specification request in binding mode, as this app, and returns the reply's JSON. */
    String callBound(String requestJson) throws InterruptedException {
        bind(requestJson);
        return awaitSpecReply();
    }

    /** The service started last, or null. */
    ServiceController<? extends TestToolService> service() {
        return service;
    }

    /** Destroys the service started last, as Android does after its last stopSelf. */
    void stop() {
        if (service != null) {
            service.destroy();
            service = null;
        }
    }

    /** Idles the main looper until cond holds, or fails after WAIT_MILLIS. */
    static void idleMainUntil(String what, BooleanSupplier cond) throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_MILLIS;
        while (true) {
            shadowOf(Looper.getMainLooper()).idle();
            if (cond.getAsBoolean()) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(2);
        }
    }

    /** Waits until the hold calls named names, and no others, wait at the gate. */
    static void awaitInside(String... names) throws InterruptedException {
        List<String> want = List.of(names);
        idleMainUntil("hold calls " + want + " at the gate", () -> new TreeSet<>(Gate.inside()).equals(new TreeSet<>(want)));
    }

    /** Waits for the one reply and returns it. */
    Intent awaitReply() throws InterruptedException {
        idleMainUntil("the reply", () -> !replies.isEmpty());
        assertEquals("exactly one reply", 1, replies.size());
        return replies.get(0);
    }

    /** Waits for the one reply and returns its mobile-mcp-response extra. */
    String awaitSpecReply() throws InterruptedException {
        return awaitReply().getStringExtra(Intentbridge.ExtraResponse);
    }

    /** Starts TestToolService with a specification request and returns the reply's JSON. */
    String call(String requestJson) throws InterruptedException {
        start(requestJson);
        return awaitSpecReply();
    }
}

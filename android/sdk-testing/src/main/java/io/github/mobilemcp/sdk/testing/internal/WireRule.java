package io.github.mobilemcp.sdk.testing.internal;

import static org.robolectric.Shadows.shadowOf;

import android.app.Application;
import android.app.PendingIntent;
import android.content.BroadcastReceiver;
import android.content.ComponentName;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.content.pm.ServiceInfo;
import android.os.Build;
import android.os.Bundle;
import android.os.Handler;
import android.os.IBinder;
import android.os.Looper;

import io.github.mobilemcp.client.Mode;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.ToolSettings;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.internal.InternalApi;
import io.github.mobilemcp.sdk.testing.InstalledApps;

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

import org.jspecify.annotations.Nullable;

/**
 * The wire kit behind {@link io.github.mobilemcp.sdk.testing.McpToolRule}, for mobilemcp's own
 * tests of the SDK and the SMS app: the rule's calls, and every step between a request and its reply
 * in each shape an assistant sends (Intents with or without a callback, the prototype agent's
 * extras, Messages from any caller, starts delivered to the bound service). Not for tool
 * developers: McpToolRule is their API, and this class may change in any release.
 *
 * <p>Every reply arrives in {@link #replies()}, a binding's as an Intent whose extras are the reply
 * Message's data; {@link #awaitReply()} waits for it.
 *
 * <p>Threads (Robolectric's default PAUSED looper mode): the test thread is the main thread, and
 * nothing posted to the main looper runs until the test idles it; a reply is such a post. The
 * tool's workers run in real time on their own threads. So waiting means: idle the main looper,
 * check, sleep a little, repeat ({@link #idleUntil}).
 */
@InternalApi
public final class WireRule extends ExternalResource {
    /** How long the rule waits for a reply, in milliseconds, before it fails the test. */
    public static final long WAIT_MILLIS = 10_000;

    /** Which extras carry a request and its callback. */
    public enum Extras {
        /** The Mobile-MCP spec's: {@code mobile-mcp-request} and {@code mobile-mcp-callback}. */
        SPEC,
        /** The prototype agent's: {@code request} and {@code mcp_callback}. */
        PROTOTYPE
    }

    private static final String REPLY_ACTION = "io.github.mobilemcp.sdk.testing.REPLY";

    private final Class<? extends McpToolService> serviceClass;
    /** Whether to record the user's consent for this app before the first request. */
    private boolean consent = true;
    private long timeoutMillis;
    /** The descriptor resource to declare serviceClass with, or 0 when the manifest declares it. */
    private int descriptor;
    /** Replies, in arrival order. Main (test) thread only. */
    private final List<Intent> replies = new ArrayList<>();
    /** The service startService started last, which the next one replaces. */
    private @Nullable ServiceController<? extends McpToolService> started;
    private int startIds;
    /** The request code of the next callback of its own (0 is callback's). */
    private int requestCode;
    /** The service agents reach through bindService, and that deliver and await start. */
    private @Nullable ServiceController<? extends McpToolService> hosted;
    private int hostedStarts;
    /** Binding mode to the hosted service. */
    private @Nullable ToolBinding binding;

    /** A rule that calls serviceClass, which the manifest declares. */
    public WireRule(Class<? extends McpToolService> serviceClass) {
        this.serviceClass = serviceClass;
    }

    /** The caller starts without the user's consent, as a new assistant does. */
    public WireRule withoutConsent() {
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
    public WireRule withDescriptor(int descriptorResource) {
        descriptor = descriptorResource;
        return this;
    }

    /** Gives every capability this deadline instead of its mcp:timeout, to test the timeout path quickly. */
    public WireRule withTimeoutMillis(long millis) {
        timeoutMillis = millis;
        return this;
    }

    @Override
    protected void before() {
        open();
    }

    /** What the rule does before a test: McpToolRule calls it from its own. */
    public void open() {
        Application app = app();
        // The user's decisions are kept with the caller's signing certificate.
        InstalledApps.sign(app, app.getPackageName(), "the certificate of " + app.getPackageName());
        if (timeoutMillis > 0) {
            EngineAccess.setTimeoutMillis(app, timeoutMillis);
        }
        if (descriptor != 0) {
            declareService();
        }
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
    }

    /** Adds serviceClass to the PackageManager as a manifest entry with descriptor would. */
    private void declareService() {
        Application app = app();
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
        close();
    }

    /** Destroys the services the rule made, as Android would after their last stopSelf. */
    public void close() {
        stopService();
        if (hosted != null) {
            hosted.destroy();
        }
        if (binding != null) {
            binding.close();
        }
    }

    /** The application under test: your app, which is also the caller unless a call names another. */
    public Application app() {
        return RuntimeEnvironment.getApplication();
    }

    /** Your tool, to change the user's decisions between calls. Records the rule's consent first. */
    public ToolSettings settings() {
        consentOnce();
        return ToolSettings.get(app());
    }

    /** Records the user's consent for this app before its first request, unless made withoutConsent. */
    private void consentOnce() {
        if (consent) {
            consent = false; // once: a test may forget it afterwards
            ToolSettings.get(app()).allow(app().getPackageName());
        }
    }

    // Requests, in the shapes an assistant sends.

    /** A request in the Mobile-MCP spec's shape, with the arguments (a JSON object) under args. */
    public static String request(String id, String capabilityId, String argsJson) {
        return "{\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{\"id\":" + JSONObject.quote(id)
                + ",\"capability\":{\"id\":" + JSONObject.quote(capabilityId) + ",\"args\":" + argsJson + "}}}}";
    }

    /**
     * A failure reply in the spec's layout, as the engine writes it: id and capability are left out
     * of it when null (a request that could not be read).
     */
    public static String failureReply(@Nullable String id, @Nullable String capabilityId, String message, String errorCode) {
        return "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":"
                + (id == null ? "null" : JSONObject.quote(id))
                + (capabilityId == null ? "" : ",\"capability\":{\"id\":" + JSONObject.quote(capabilityId) + "}")
                + ",\"status\":\"failure\",\"message\":" + JSONObject.quote(message)
                + ",\"error_code\":" + JSONObject.quote(errorCode) + "}}}";
    }

    /**
     * A reply callback whose replies arrive in {@link #replies()}, created by your app with flags:
     * mutable, or the reply cannot be filled in; explicit, as Android 14 requires of mutable ones.
     * It is the same PendingIntent each time (request code 0).
     */
    public PendingIntent callback(int flags) {
        return PendingIntent.getBroadcast(app(), 0, new Intent(REPLY_ACTION).setPackage(app().getPackageName()), flags);
    }

    /** The Intent of requestJson to the service, with a mutable {@link #callback}. */
    public Intent intentFor(String requestJson) {
        return intentWithoutCallback(requestJson).putExtra("mobile-mcp-callback", callback(PendingIntent.FLAG_MUTABLE));
    }

    /**
     * The Intent of requestJson as another app would send it: its callback, a PendingIntent of its
     * own, claims creatorPackage as its creator, which is all the tool learns of an Intent's caller.
     */
    public Intent intentFrom(String creatorPackage, String requestJson) {
        return intentWithoutCallback(requestJson).putExtra("mobile-mcp-callback", callbackFrom(creatorPackage));
    }

    /** The Intent of requestJson without a callback, as adb's {@code am} sends it. */
    public Intent intentWithoutCallback(String requestJson) {
        return new Intent("mobile.mcp.SERVICE").setClass(app(), serviceClass).putExtra("mobile-mcp-request", requestJson);
    }

    /** A mutable callback of its own, whose replies arrive in replies(), claiming creatorPackage. */
    private PendingIntent callbackFrom(String creatorPackage) {
        PendingIntent callback = PendingIntent.getBroadcast(app(), ++requestCode,
                new Intent(REPLY_ACTION).setPackage(app().getPackageName()), PendingIntent.FLAG_MUTABLE);
        shadowOf(callback).setCreatorPackage(creatorPackage);
        return callback;
    }

    // Step by step: send, then wait for the reply in replies().

    /**
     * Every reply so far, in arrival order: each an Intent, a binding's with the reply Message's
     * data as its extras. Main (test) thread only; clear it to await the next reply.
     */
    public List<Intent> replies() {
        return replies;
    }

    /**
     * Creates the service with intent and runs its onStartCommand, as {@code startForegroundService}
     * does, without waiting for the reply; the service this started before is destroyed first, as
     * Android does after its last stopSelf.
     */
    public ServiceController<? extends McpToolService> startService(Intent intent) {
        stopService();
        consentOnce();
        ServiceController<? extends McpToolService> service = Robolectric.buildService(serviceClass, intent).create();
        started = service;
        return service.startCommand(0, ++startIds);
    }

    /** The service {@link #startService} started last, or null. */
    public @Nullable ServiceController<? extends McpToolService> service() {
        return started;
    }

    /** Destroys the service {@link #startService} started last, as Android does after its last stopSelf. */
    public void stopService() {
        if (started != null) {
            started.destroy();
            started = null;
        }
    }

    /** Sends requestJson over binding mode from your own app, without waiting; see {@link #sendMessageAs}. */
    public void sendMessage(String requestJson) {
        sendMessageAs(app().getPackageName(), "mobile-mcp-request", requestJson);
    }

    /**
     * Sends requestJson under requestKey ({@code mobile-mcp-request}, or the prototype agent's
     * {@code request}) as a Message to the service's Messenger from the Binder uid that the
     * PackageManager names callerPackage, without waiting. The reply arrives in {@link #replies()}.
     */
    public void sendMessageAs(String callerPackage, String requestKey, String requestJson) {
        consentOnce();
        host();
        binding.send(callerPackage, requestKey, requestJson);
    }

    /**
     * Starts the service that binding mode reaches with intent, as Android delivers a
     * {@code startForegroundService} to a tool service that runs already: one instance serves both
     * transports. The reply arrives in {@link #replies()}.
     */
    public void deliver(Intent intent) {
        consentOnce();
        host();
        hosted.withIntent(intent).startCommand(0, ++hostedStarts);
    }

    /** Waits for a reply and returns it; fails unless exactly one has arrived since replies() was empty. */
    public Intent awaitReply() {
        idleUntil("the reply", () -> !replies.isEmpty());
        idle(); // a second reply would have arrived by now
        if (replies.size() != 1) {
            throw new AssertionError("exactly one reply expected, got " + replies.size());
        }
        return replies.get(0);
    }

    /** Waits for the one reply, as awaitReply does, and returns its {@code mobile-mcp-response} extra. */
    public String awaitReplyJson() {
        String json = awaitReply().getStringExtra("mobile-mcp-response");
        if (json == null) {
            throw new AssertionError("the reply has no mobile-mcp-response extra");
        }
        return json;
    }

    // Calls that wait for their reply.

    /**
     * Waits for future, an agent library's pending call (such as the client library's
     * {@code invoke}), while playing Android's part: Robolectric records startForegroundService
     * instead of starting anything and binds only to a binder it was given, so this hands every
     * recorded start to one instance of the service and lets bindService reach it. Returns the
     * future's value, and fails the test after {@link #WAIT_MILLIS}.
     */
    public <T extends @Nullable Object> T await(Future<T> future) throws ExecutionException, InterruptedException {
        consentOnce();
        host();
        idleUntil("the agent's call", () -> {
            pump();
            return future.isDone();
        });
        return future.get();
    }

    /** Creates the hosted service, offers its binder to bindService, and binds to it. */
    private void host() {
        if (hosted != null) {
            return;
        }
        Application app = app();
        hosted = Robolectric.buildService(serviceClass).create();
        ComponentName component = new ComponentName(app, serviceClass);
        IBinder binder = hosted.get().onBind(new Intent("mobile.mcp.SERVICE").setComponent(component));
        shadowOf(app).setComponentNameAndServiceForBindService(component, binder);
        Handler main = new Handler(Looper.getMainLooper());
        // replies belongs to the main thread.
        binding = new ToolBinding(app, binder, data -> main.post(() -> replies.add(new Intent().putExtras(data))));
    }

    /** Hands the starts recorded so far to the hosted service; bindService records extra-less ones. */
    private void pump() {
        for (Intent start = shadowOf(app()).getNextStartedService(); start != null; start = shadowOf(app()).getNextStartedService()) {
            if (start.getExtras() != null) {
                hosted.withIntent(start).startCommand(0, ++hostedStarts);
            }
        }
    }

    /**
     * Calls capabilityId with arguments given as a JSON object, such as {@code {"title":"Milk"}},
     * over binding mode from your own app, and returns the one reply, failures included. Throws a
     * JSONException when argsJson is not a JSON object, and fails the test (AssertionError) when no
     * reply or more than one comes within {@link #WAIT_MILLIS}. Main (test) thread.
     */
    public Reply call(String capabilityId, String argsJson) throws JSONException {
        return callAs(app().getPackageName(), capabilityId, argsJson);
    }

    /**
     * Calls capabilityId as the app callerPackage, over binding mode: the Message comes from a
     * Binder uid that the PackageManager names callerPackage, as on a device. Returns and throws
     * as {@link #call} does.
     */
    public Reply callAs(String callerPackage, String capabilityId, String argsJson) throws JSONException {
        JSONObject request = new JSONObject().put("mobile-mcp-request", new JSONObject()
                .put("version", "1.0")
                .put("request", new JSONObject()
                        .put("id", UUID.randomUUID().toString())
                        .put("capability", new JSONObject().put("id", capabilityId).put("args", new JSONObject(argsJson)))));
        Bundle reply = bound(callerPackage, "mobile-mcp-request", request.toString());
        return Reply.fromJson(reply.getString("mobile-mcp-response"));
    }

    /**
     * Sends requestJson, a {@code mobile-mcp-request} written by the test (its own request id, to
     * test a retry; any shape, to test what a bad request gets), as it is, from this app in mode:
     * {@link Mode#BINDING} as a Message, or {@link Mode#INTENT} in an Intent with a callback, where
     * the tool learns no caller. Returns the reply's {@code mobile-mcp-response} JSON
     * ({@link io.github.mobilemcp.client.Reply#fromJson} reads it); fails the test as {@link #call}
     * does.
     */
    public String sendForResponse(String requestJson, Mode mode) {
        String json = mode == Mode.INTENT
                ? send(requestJson, Extras.SPEC).getStringExtra("mobile-mcp-response")
                : sendBound(requestJson, Extras.SPEC).getString("mobile-mcp-response");
        if (json == null) {
            throw new AssertionError("the reply has no mobile-mcp-response extra");
        }
        return json;
    }

    /**
     * Sends any request JSON, in any shape, as it is, over binding mode from your own app: under the
     * key of extras. Returns the reply Message's data, which holds the extras an Intent reply would.
     */
    public Bundle sendBound(String requestJson, Extras extras) {
        return bound(app().getPackageName(), extras == Extras.PROTOTYPE ? "request" : "mobile-mcp-request", requestJson);
    }

    /** Sends requestJson as a Message from callerPackage's uid, and returns the one reply's data. */
    private Bundle bound(String callerPackage, String requestKey, String requestJson) {
        int before = replies.size();
        sendMessageAs(callerPackage, requestKey, requestJson);
        Bundle data = oneReplyAfter(before).getExtras();
        return data == null ? new Bundle() : data;
    }

    /**
     * Sends any request JSON, in any shape, as it is, in an Intent, under extras. Returns the reply Intent, whose extras are what an agent reads. In an
     * Intent, a capability that is not read-only gets permission_denied; see {@link #sendBound}.
     */
    public Intent send(String requestJson, Extras extras) {
        Intent intent = new Intent("mobile.mcp.SERVICE").setClass(app(), serviceClass);
        PendingIntent callback = callbackFrom(app().getPackageName());
        return start(extras == Extras.PROTOTYPE
                ? intent.putExtra("request", requestJson).putExtra("mcp_callback", callback)
                : intent.putExtra("mobile-mcp-request", requestJson).putExtra("mobile-mcp-callback", callback));
    }

    /**
     * Starts the service with intent, as Android would, and returns the one reply broadcast.
     * Use it for Intents you build yourself.
     */
    public Intent start(Intent intent) {
        int before = replies.size();
        startService(intent);
        return oneReplyAfter(before);
    }

    /** Waits for the reply after the first before, and fails when more than one arrives. */
    private Intent oneReplyAfter(int before) {
        idleUntil("the reply", () -> replies.size() > before);
        idle(); // a second reply would have arrived by now
        if (replies.size() != before + 1) {
            throw new AssertionError("the tool sent " + (replies.size() - before) + " replies to one request");
        }
        return replies.get(before);
    }

    /** Idles the main looper until cond holds, failing the test after {@link #WAIT_MILLIS}. */
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

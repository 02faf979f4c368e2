package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.app.Application;
import android.app.PendingIntent;
import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.os.Build;
import android.os.Handler;
import android.os.Looper;
import android.telephony.SmsManager;
import android.telephony.SubscriptionInfo;
import android.telephony.SubscriptionManager;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.McpTool;
import io.github.mobilemcp.sdk.testing.InstalledApps;
import io.github.mobilemcp.sdk.testing.ToolBinding;
import io.github.mobilemcp.sdk.internal.EngineAccess;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import org.json.JSONException;
import org.json.JSONObject;
import org.junit.rules.ExternalResource;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ServiceController;
import org.robolectric.shadows.ShadowSmsManager;
import org.robolectric.shadows.ShadowSubscriptionManager;
import org.robolectric.shadows.ShadowSubscriptionManager.SubscriptionInfoBuilder;

/**
 * Plays an on-device agent in tests: it sets up the phone (SIMs, permissions), starts ToolService
 * the way an agent does, and collects the reply broadcasts that come back through its PendingIntent.
 * A JUnit rule ({@code @Rule public final FakeAgent agent = new FakeAgent();}, or in Kotlin
 * {@code @get:Rule val agent = FakeAgent()}: the rule's type is public, as JUnit and Kotlin need it): after each test it
 * destroys the service it started, as Android would after the service's last stopSelf.
 *
 * <p>The agent is this app itself: its callbacks are PendingIntents this app creates, so the tool
 * sees the caller io.github.mobilemcp.app. An Intent runs only read-only capabilities; sends go by
 * binding ({@link #bind}, {@link #bindAs}), where the caller is the package of the Binder uid, and
 * the PackageManager knows each caller's signing certificate ({@code InstalledApps}). Unless made
 * {@link #withoutConsent()}, the agent has the user's consent to send SMS, recorded with the SDK's
 * {@link McpTool} just before its first request, so a test can still configure the tool (a short
 * deadline, a debuggable build) before its engine opens.
 *
 * <p>Threads (Robolectric's default PAUSED looper mode): the test thread is the main thread, and
 * nothing posted to the main looper runs until the test idles it; the reply broadcast is such a
 * post, and so is each SMS part's sent result (SmsSentReceiver runs on the main thread). The
 * service's workers run in real time on their own threads. So waiting means: idle the main looper,
 * check, sleep a little, repeat.
 */
public final class FakeAgent extends ExternalResource {
    static final String REPLY_ACTION = "io.github.mobilemcp.test.REPLY";
    static final long WAIT_MILLIS = 10_000;


    /** The SDK's consent question's notification id ("mcp2", tagged with the calling package), package-private there. */
    static final int CONSENT_NOTIFICATION_ID = 0x6d637032;

    /** Two SIMs; the second display name crosses JNI as non-ASCII both ways. */
    static final SubscriptionInfo SIM_14 = SubscriptionInfoBuilder.newBuilder().setId(14).setSimSlotIndex(0)
            .setCarrierName("Vodafone UK").setDisplayName("Vodafone UK").buildSubscriptionInfo();
    static final SubscriptionInfo SIM_17 = SubscriptionInfoBuilder.newBuilder().setId(17).setSimSlotIndex(1)
            .setCarrierName("Yettel HU").setDisplayName("Ünnep 🎉").buildSubscriptionInfo();

    final Application app = RuntimeEnvironment.getApplication();
    /** Reply broadcasts, in arrival order. Touched on the main (test) thread only. */
    final List<Intent> replies = new ArrayList<>();
    private ServiceController<? extends ToolService> service;
    /** Whether to record the user's consent for this app before the first start. */
    private boolean consent = true;
    /** Binding mode: the service bound to, and the binding its requests go through. */
    private ServiceController<ToolService> bound;
    private ToolBinding binding;

    public FakeAgent() {
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
        shadowOf(app).grantPermissions(Manifest.permission.SEND_SMS, Manifest.permission.READ_PHONE_STATE);
        // The user's decisions are kept with the caller's signing certificate.
        InstalledApps.sign(app, app.getPackageName(), "the certificate of " + app.getPackageName());
        setSims(SIM_14, SIM_17);
    }

    /** An agent the user has not allowed to send SMS (yet). */
    public static FakeAgent withoutConsent() {
        FakeAgent agent = new FakeAgent();
        agent.consent = false;
        return agent;
    }

    /** The app's tool, as the SDK keeps it for the process: the user's decisions, the developer switch. */
    public McpTool tool() {
        return McpTool.get(app);
    }

    /** The tool's engine, the one ToolService runs requests on. */
    Bridge engine() {
        return EngineAccess.bridge(app);
    }

    /**
     * Runs a request on the engine directly, as the service's worker does, and returns its reply.
     * The engine runs it on this thread, so the reply is there when handle returns; the tool must
     * have started (a ToolService created).
     */
    static Reply handle(Bridge engine, String requestJson, String callerPackage) {
        AtomicReference<String> reply = new AtomicReference<>();
        engine.handle(requestJson, callerPackage, (spec, flat, requestId, errorCode) -> reply.set(spec));
        try {
            return Reply.fromJson(reply.get());
        } catch (JSONException e) {
            throw new AssertionError("the engine's reply is not JSON: " + reply.get(), e);
        }
    }

    void setSims(SubscriptionInfo... sims) {
        ShadowSubscriptionManager subs = shadowOf(app.getSystemService(SubscriptionManager.class));
        subs.setActiveSubscriptionInfoList(Arrays.asList(sims));
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

    /**
     * The agent's callback. Mutable, or the reply could not be filled in; explicit (setPackage),
     * as Android 14 requires of mutable PendingIntents.
     */
    PendingIntent callback(int flags) {
        return PendingIntent.getBroadcast(app, 0, new Intent(REPLY_ACTION).setPackage(app.getPackageName()), flags);
    }

    /** The Intent of a specification request with a mutable callback. */
    Intent specIntent(String requestJson) {
        return new Intent(Intentbridge.ServiceAction)
                .setClassName(app, ToolService.class.getName())
                .putExtra(Intentbridge.ExtraRequest, requestJson)
                .putExtra(Intentbridge.ExtraCallback, callback(PendingIntent.FLAG_MUTABLE));
    }

    /** Starts ToolService with a specification request, as startForegroundService would. */
    ServiceController<? extends ToolService> start(String requestJson) {
        return start(ToolService.class, specIntent(requestJson));
    }

    /** Starts cls with intent, after destroying a service this agent started before. */
    ServiceController<? extends ToolService> start(Class<? extends ToolService> cls, Intent intent) {
        stop();
        consentOnce();
        service = Robolectric.buildService(cls, intent).create().startCommand(0, 1);
        return service;
    }

    /** Records the user's consent for this app before its first request, unless made withoutConsent. */
    private void consentOnce() {
        if (consent) {
            tool().allow(app.getPackageName());
            consent = false; // once is enough; a test may revoke it
        }
    }

    /**
     * Sends a specification request in binding mode, as this app: a Message to ToolService's
     * Messenger. Capabilities that change something run only this way, where Android names the
     * caller by its Binder uid. The reply Message's data arrives in {@link #replies} as the extras
     * of an Intent, as an Intent reply's would, so awaitReply and awaitSpecReply read it.
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
        if (bound == null) {
            bound = Robolectric.buildService(ToolService.class).create();
            Handler main = new Handler(Looper.getMainLooper());
            binding = new ToolBinding(app, bound.get().onBind(new Intent(Intentbridge.ServiceAction)),
                    data -> main.post(() -> replies.add(new Intent().putExtras(data)))); // replies belongs to the main thread
        }
        binding.send(caller, requestExtra, requestJson);
    }

    /** Sends a specification request in binding mode, as this app, and returns the reply's JSON. */
    String callBound(String requestJson) throws InterruptedException {
        bind(requestJson);
        return awaitSpecReply();
    }

    /** Destroys the service started last, as Android does after its last stopSelf. */
    void stop() {
        if (service != null) {
            service.destroy();
            service = null;
        }
    }

    @Override
    protected void after() {
        stop();
        if (bound != null) {
            bound.destroy();
            binding.close();
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

    /** Waits for the one reply broadcast and returns it. */
    Intent awaitReply() throws InterruptedException {
        idleMainUntil("the reply broadcast", () -> !replies.isEmpty());
        assertEquals("exactly one reply", 1, replies.size());
        return replies.get(0);
    }

    /** Waits for the one reply and returns its mobile-mcp-response extra. */
    String awaitSpecReply() throws InterruptedException {
        return awaitReply().getStringExtra(Intentbridge.ExtraResponse);
    }

    /** Starts ToolService with a specification request and returns the reply's JSON. */
    String call(String requestJson) throws InterruptedException {
        start(requestJson);
        return awaitSpecReply();
    }

    /** The shadow of the very SmsManager AndroidPlatform uses for subscriptionId, as it gets it per API level. */
    @SuppressWarnings("deprecation")
    ShadowSmsManager sms(int subscriptionId) {
        return shadowOf(Build.VERSION.SDK_INT >= 31
                ? app.getSystemService(SmsManager.class).createForSubscriptionId(subscriptionId)
                : SmsManager.getSmsManagerForSubscriptionId(subscriptionId));
    }

    /** Waits until the worker has handed the SMS to the SmsManager of subscriptionId. */
    ShadowSmsManager.TextMultipartParams awaitSend(int subscriptionId) throws InterruptedException {
        ShadowSmsManager sms = sms(subscriptionId);
        idleMainUntil("sendMultipartTextMessage on subscription " + subscriptionId,
                () -> sms.getLastSentMultipartTextMessageParams() != null);
        return sms.getLastSentMultipartTextMessageParams();
    }

    /** True when no SIM's SmsManager was asked to send anything. */
    boolean nothingSent() {
        for (int sub : new int[] {14, 17}) {
            ShadowSmsManager sms = sms(sub);
            if (sms.getLastSentMultipartTextMessageParams() != null || sms.getLastSentTextMessageParams() != null) {
                return false;
            }
        }
        return true;
    }
}

package io.github.mobilemcp.app;

import android.Manifest;
import android.annotation.TargetApi;
import android.app.PendingIntent;
import android.content.Context;
import android.content.Intent;
import android.content.pm.PackageManager;
import android.os.Build;
import android.telephony.SmsManager;
import android.telephony.SubscriptionInfo;
import android.telephony.SubscriptionManager;

import io.github.mobilemcp.smsapp.Platform;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Java half of the Go {@code smsapp.Platform}: the calls Go cannot make itself. Its JSON
 * answers are specified in that interface's doc comments.
 *
 * <p>Result codes are passed to Go raw (Activity.RESULT_OK, SmsManager.RESULT_ERROR_*): the Go SMS
 * capability turns them into readable errors, one mapping for every platform.
 *
 * <p>Sent results come back through {@link SmsSentReceiver}, a receiver declared in the manifest,
 * not one registered at run time. From Android 14, the broadcasts of runtime receivers of an app in
 * the cached state are queued until the app leaves it; a send made for a binding from a background
 * agent, whose process Android may cache at any moment, would then wait out its timeout and
 * answer {@code timeout} for an SMS that went. Manifest receivers are delivered anyway: Android
 * wakes the process for them.
 *
 * <p>Threading: Go calls these methods on the SDK's worker threads, several at once, and
 * {@link #sendSMS} blocks its worker until every part has a sent result. The receiver runs on the
 * main thread, which the engine never blocks, and hands each result to the waiting send by its
 * send id, so concurrent sends do not mix.
 */
final class AndroidPlatform implements Platform {
    static final String ACTION_SENT = "io.github.mobilemcp.app.SMS_SENT";
    static final String EXTRA_SEND_ID = "io.github.mobilemcp.app.SEND_ID";
    static final String EXTRA_PART = "io.github.mobilemcp.app.PART";

    /**
     * PendingIntents are told apart by request code, not by extras: each part's gets its own code,
     * or a second part would get the first part's PendingIntent back.
     */
    private static final AtomicInteger nextRequestCode = new AtomicInteger(1);

    /** The sends waiting for their sent results, by send id. */
    private static final Map<String, SentResults> WAITING = new ConcurrentHashMap<>();

    private final Context context;

    AndroidPlatform(Context context) {
        this.context = context.getApplicationContext();
    }

    /**
     * Records one part's sent result, from SmsSentReceiver. A result for a send nobody waits for
     * any more (it timed out, or the process restarted since) is dropped.
     */
    static void sent(String sendId, int part, int resultCode) {
        SentResults results = sendId == null ? null : WAITING.get(sendId);
        if (results != null) {
            results.record(part, resultCode);
        }
    }

    @Override
    public String subscriptionsJSON() throws JSONException {
        if (!granted(Manifest.permission.READ_PHONE_STATE)) {
            return permissionDenied("read the phone's SIM subscriptions", "Phone",
                    Manifest.permission.READ_PHONE_STATE);
        }
        SubscriptionManager manager = context.getSystemService(SubscriptionManager.class);
        List<SubscriptionInfo> infos;
        try {
            infos = manager.getActiveSubscriptionInfoList();
        } catch (SecurityException e) {
            return error("permission_denied", "reading the SIM subscriptions was refused: " + e.getMessage());
        }
        JSONArray out = new JSONArray();
        if (infos != null) { // null, not empty, when there is no SIM
            for (SubscriptionInfo info : infos) {
                out.put(new JSONObject()
                        .put("subscription_id", info.getSubscriptionId())
                        .put("sim_slot_index", info.getSimSlotIndex())
                        .put("carrier_name", text(info.getCarrierName()))
                        .put("display_name", text(info.getDisplayName())));
            }
        }
        return out.toString();
    }

    @Override
    public String sendSMS(long subscriptionID, String to, String text, long timeoutMillis)
            throws JSONException, InterruptedException {
        if (!granted(Manifest.permission.SEND_SMS)) {
            return permissionDenied("send SMS", "SMS", Manifest.permission.SEND_SMS);
        }
        SmsManager sms = smsManager(Math.toIntExact(subscriptionID));
        ArrayList<String> parts = sms.divideMessage(text);
        SentResults results = new SentResults(parts.size());
        // A random id ties the broadcasts to this send: an old PendingIntent firing late is ignored.
        String sendId = UUID.randomUUID().toString();
        WAITING.put(sendId, results);
        try {
            sms.sendMultipartTextMessage(to, null, parts, sentIntents(sendId, parts.size()), null);
            results.await(timeoutMillis);
        } catch (SecurityException e) {
            return error("permission_denied", "sending the SMS was refused: " + e.getMessage());
        } finally {
            WAITING.remove(sendId);
        }
        return new JSONObject().put("results", new JSONArray(results.codes())).toString();
    }

    /** One sent PendingIntent per part, each with its own request code. */
    private ArrayList<PendingIntent> sentIntents(String sendId, int parts) {
        ArrayList<PendingIntent> intents = new ArrayList<>(parts);
        for (int i = 0; i < parts; i++) {
            // Explicit (to the manifest's SmsSentReceiver, which is not exported: the telephony
            // stack sends it with this app's identity) and immutable, as Android 14 wants; the
            // radio still sets the result code. CANCEL_CURRENT: after a process restart the counter
            // starts again, and a stale PendingIntent with the same code must not come back with its
            // old extras.
            Intent sent = new Intent(ACTION_SENT)
                    .setClass(context, SmsSentReceiver.class)
                    .putExtra(EXTRA_SEND_ID, sendId)
                    .putExtra(EXTRA_PART, i);
            intents.add(PendingIntent.getBroadcast(context, nextRequestCode.getAndIncrement(), sent,
                    PendingIntent.FLAG_IMMUTABLE | PendingIntent.FLAG_ONE_SHOT
                            | PendingIntent.FLAG_CANCEL_CURRENT));
        }
        return intents;
    }

    @SuppressWarnings("deprecation") // getSmsManagerForSubscriptionId: replaced in API 31
    private SmsManager smsManager(int subscriptionId) {
        if (Build.VERSION.SDK_INT >= 31) {
            return smsManagerFor(subscriptionId);
        }
        return SmsManager.getSmsManagerForSubscriptionId(subscriptionId);
    }

    @TargetApi(31) // called only from API 31 on
    private SmsManager smsManagerFor(int subscriptionId) {
        return context.getSystemService(SmsManager.class).createForSubscriptionId(subscriptionId);
    }

    private boolean granted(String permission) {
        return context.checkSelfPermission(permission) == PackageManager.PERMISSION_GRANTED;
    }

    private static String permissionDenied(String what, String setting, String permission)
            throws JSONException {
        return error("permission_denied", "the mobilemcp app is not allowed to " + what
                + ": open mobilemcp on the phone and allow " + setting + " (" + permission + ")");
    }

    private static String error(String code, String message) throws JSONException {
        return new JSONObject().put("error_code", code).put("message", message).toString();
    }

    private static String text(CharSequence s) {
        return s == null ? "" : s.toString();
    }
}

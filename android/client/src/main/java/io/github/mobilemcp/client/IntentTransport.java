package io.github.mobilemcp.client;

import android.annotation.TargetApi;
import android.app.PendingIntent;
import android.content.BroadcastReceiver;
import android.content.ComponentName;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.net.Uri;
import android.os.Build;
import android.os.Handler;
import android.util.Log;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * Intent mode (the Mobile-MCP spec §3.1, the second way): the request goes in an explicit Intent to the tool's
 * service, and the reply comes back through a PendingIntent to a receiver of this app.
 *
 * <ul>
 *   <li>The PendingIntent is a broadcast to this app only (an explicit Intent: setPackage), mutable
 *       so that the tool can fill in the reply, and one-shot so that it answers once. Each
 *       invocation gets its own request code: PendingIntents differ by request code, not by
 *       extras.
 *   <li>The receiver is registered at run time, not exported (RECEIVER_NOT_EXPORTED, API 33+), for
 *       an action unique to this client, and runs on the client's own thread.
 *   <li>The callback Intent carries the call's key (its request id and which sending it is) in its data URI, which the tool's fill-in cannot
 *       change (Intent.fillIn replaces the data only when the creator allows it, and extras it
 *       replaces freely), so a tool can answer only the call it was given; the reply must carry the
 *       same id.
 *   <li>From Android 12, an app in the background may not start a foreground service, and
 *       startForegroundService throws; {@link #send} then returns false and the client sends the
 *       same request over a binding, which Android allows from the background.
 * </ul>
 */
final class IntentTransport {
    private static final String TAG = "MobileMcpClient";
    /** The scheme of the callback Intent's data URI, which names the invocation. */
    static final String CALL_SCHEME = "mobilemcp-call";

    private final Context context;
    private final MobileMcpClient client;
    private final Handler handler;
    private final String replyAction = "io.github.mobilemcp.client.REPLY." + UUID.randomUUID();
    private final AtomicInteger requestCodes = new AtomicInteger();
    private @Nullable BroadcastReceiver receiver;

    IntentTransport(Context context, MobileMcpClient client, Handler handler) {
        this.context = context;
        this.client = client;
        this.handler = handler;
    }

    /**
     * Starts tool's service with the request. Returns false, having sent nothing, when Android
     * refuses the start because this app is in the background (Android 12+:
     * ForegroundServiceStartNotAllowedException, an IllegalStateException); the caller then uses
     * binding mode, which Android allows from the background. Throws for any other failure.
     */
    boolean send(Tool tool, Call call, String request) throws MobileMcpException {
        registerReceiver();
        Intent reply = new Intent(replyAction, Uri.fromParts(CALL_SCHEME, call.key, null)).setPackage(context.getPackageName());
        int flags = PendingIntent.FLAG_ONE_SHOT;
        if (Build.VERSION.SDK_INT >= 31) {
            flags |= PendingIntent.FLAG_MUTABLE; // before 31, mutable is the default
        }
        PendingIntent callback = PendingIntent.getBroadcast(context, requestCodes.incrementAndGet(), reply, flags);
        call.onDone(callback::cancel);
        Intent service = new Intent(Wire.ACTION_SERVICE)
                .setClassName(tool.packageName(), tool.serviceName())
                .putExtra(Wire.EXTRA_REQUEST, request)
                .putExtra(Wire.EXTRA_CALLBACK, callback);
        ComponentName started;
        try {
            started = Build.VERSION.SDK_INT >= 26 ? startForeground(service) : context.startService(service);
        } catch (IllegalStateException e) {
            // Android 12+ lets an app in the background start no foreground service
            // (ForegroundServiceStartNotAllowedException), and 8+ no background service. Nothing
            // was started, so the callback is never used.
            callback.cancel();
            Log.i(TAG, "Android refused to start " + tool + " from the background (" + e + "); binding instead");
            return false;
        } catch (RuntimeException e) {
            // SecurityException: not exported, or a permission
            throw MobileMcpException.unsent("could not start " + tool + ": " + e, e);
        }
        if (started == null) {
            throw MobileMcpException.unsent("could not start " + tool + ": no such service", null);
        }
        return true;
    }

    private synchronized void registerReceiver() {
        if (receiver != null) {
            return;
        }
        receiver = new BroadcastReceiver() {
            @Override
            public void onReceive(Context c, Intent intent) {
                Uri data = intent.getData();
                Call call = data == null ? null : client.waiting(data.getSchemeSpecificPart());
                if (call == null) {
                    Log.w(TAG, "dropped a reply to a call that is no longer waited for");
                    return;
                }
                client.deliver(call, intent.getStringExtra(Wire.EXTRA_RESPONSE));
            }
        };
        IntentFilter filter = new IntentFilter(replyAction);
        filter.addDataScheme(CALL_SCHEME);
        if (Build.VERSION.SDK_INT >= 33) {
            registerNotExported(filter);
        } else {
            // Before 33 a runtime receiver has no exported flag. The action is unique to this
            // client, and the callback is explicit, so only the tool's reply arrives here.
            context.registerReceiver(receiver, filter, null, handler);
        }
    }

    @TargetApi(26) // called only from API 26 on
    private @Nullable ComponentName startForeground(Intent service) {
        return context.startForegroundService(service);
    }

    @TargetApi(33) // called only from API 33 on
    private void registerNotExported(IntentFilter filter) {
        context.registerReceiver(receiver, filter, null, handler, Context.RECEIVER_NOT_EXPORTED);
    }

    synchronized void close() {
        if (receiver != null) {
            context.unregisterReceiver(receiver);
            receiver = null;
        }
    }
}

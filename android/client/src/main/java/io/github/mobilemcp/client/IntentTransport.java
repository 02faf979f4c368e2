package io.github.mobilemcp.client;

import android.annotation.TargetApi;
import android.app.PendingIntent;
import android.content.BroadcastReceiver;
import android.content.ComponentName;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.os.Build;
import android.os.Handler;
import android.util.Log;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

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
 *   <li>The callback Intent carries the request id in an extra that the tool does not touch; the
 *       reply is matched by it and must carry the same id.
 *   <li>From Android 12, an app in the background may not start a foreground service, and
 *       startForegroundService throws; {@link #send} then returns false and the client sends the
 *       same request over a binding, which Android allows from the background.
 * </ul>
 */
final class IntentTransport {
    private static final String TAG = "MobileMcpClient";
    /** Names the invocation on its callback Intent. */
    static final String EXTRA_CALL_ID = "io.github.mobilemcp.client.CALL_ID";

    private final Context context;
    private final MobileMcpClient client;
    private final Handler handler;
    private final String replyAction = "io.github.mobilemcp.client.REPLY." + UUID.randomUUID();
    private final AtomicInteger requestCodes = new AtomicInteger();
    private BroadcastReceiver receiver;

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
        Intent reply = new Intent(replyAction).setPackage(context.getPackageName()).putExtra(EXTRA_CALL_ID, call.id);
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
                client.deliver(intent.getStringExtra(EXTRA_CALL_ID), intent.getStringExtra(Wire.EXTRA_RESPONSE), true);
            }
        };
        IntentFilter filter = new IntentFilter(replyAction);
        if (Build.VERSION.SDK_INT >= 33) {
            registerNotExported(filter);
        } else {
            // Before 33 a runtime receiver has no exported flag. The action is unique to this
            // client, and the callback is explicit, so only the tool's reply arrives here.
            context.registerReceiver(receiver, filter, null, handler);
        }
    }

    @TargetApi(26) // called only from API 26 on
    private ComponentName startForeground(Intent service) {
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

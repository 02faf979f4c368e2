package io.github.mobilemcp.sdk;

import android.annotation.TargetApi;
import android.app.PendingIntent;
import android.content.Context;
import android.content.Intent;
import android.os.Build;
import android.os.Bundle;
import android.os.Message;
import android.os.Messenger;
import android.os.RemoteException;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.intentbridge.ReplyTarget;
import io.github.mobilemcp.sdk.internal.BindingMessages;

/**
 * Where the engine sends the one reply to a request: the caller's PendingIntent, the binding's
 * replyTo Messenger, or logcat for a request without a callback (adb). The engine calls
 * {@code send} exactly once per request, on the worker thread, or on one of its own threads when a
 * handler overran its deadline. None of them throws: an undeliverable reply is logged, by request
 * id and outcome but without its content, which may hold personal data.
 */
final class Replies {
    private Replies() {}

    /**
     * The reply as extras, the same for an Intent reply and a binding reply's Message data: the
     * spec's layout always, and for a request in the prototype agent's shape (flat is not "") also
     * the flat reply and the request id, where that agent reads them.
     */
    static Bundle extras(String spec, String flat, String requestId) {
        Bundle extras = new Bundle();
        extras.putString(Intentbridge.ExtraResponse, spec);
        if (!flat.isEmpty()) {
            extras.putString(Intentbridge.ExtraPrototypeResponse, flat);
            extras.putString(Intentbridge.ExtraPrototypeRequestID, requestId);
        }
        return extras;
    }

    static String dropped(String requestId, String errorCode, String callerPackage, String why) {
        String outcome = errorCode.isEmpty() ? "success" : "failure " + errorCode;
        return "reply to request \"" + requestId + "\" from " + callerPackage
                + " (" + outcome + ") was not delivered: " + why;
    }

    /** Fills the caller's PendingIntent. */
    static final class ToPendingIntent implements ReplyTarget {
        private final Context context;
        private final PendingIntent callback;
        private final String caller;

        ToPendingIntent(Context context, PendingIntent callback, String caller) {
            this.context = context;
            this.callback = callback;
            this.caller = caller;
        }

        @Override
        public void send(String spec, String flat, String requestId, String errorCode) {
            // A fill-in extra only lands in a mutable PendingIntent: an immutable one would deliver
            // an empty broadcast. API 31+ can tell; older platforms cannot, and deliver it empty.
            if (Build.VERSION.SDK_INT >= 31 && isImmutable(callback)) {
                Log.e(McpToolService.LOG_TAG, dropped(requestId, errorCode, caller,
                        "its callback is immutable; create it with PendingIntent.FLAG_MUTABLE"));
                return;
            }
            try {
                callback.send(context, 0, new Intent().putExtras(extras(spec, flat, requestId)));
            } catch (PendingIntent.CanceledException e) {
                Log.e(McpToolService.LOG_TAG, dropped(requestId, errorCode, caller, "its callback was cancelled"));
            } catch (RuntimeException e) {
                Log.e(McpToolService.LOG_TAG, dropped(requestId, errorCode, caller, "sending it failed"), e);
            }
        }
    }

    @TargetApi(31) // called only from API 31 on
    private static boolean isImmutable(PendingIntent callback) {
        return callback.isImmutable();
    }

    /** Answers a binding request with a MSG_RESULT Message. */
    static final class ToMessenger implements ReplyTarget {
        private final Messenger replyTo;
        private final int arg1;
        private final String caller;

        ToMessenger(Messenger replyTo, int arg1, String caller) {
            this.replyTo = replyTo;
            this.arg1 = arg1;
            this.caller = caller;
        }

        @Override
        public void send(String spec, String flat, String requestId, String errorCode) {
            Message out = Message.obtain(null, BindingMessages.MSG_RESULT, arg1, 0);
            out.setData(extras(spec, flat, requestId));
            try {
                replyTo.send(out);
            } catch (RemoteException | RuntimeException e) {
                // DeadObjectException: the agent's process died or unbound meanwhile.
                Log.e(McpToolService.LOG_TAG, dropped(requestId, errorCode, caller, "the agent's Messenger is gone"), e);
            }
        }
    }

    /**
     * Logs the reply to a request without a callback as one line of JSON, where
     * {@code mobilemcp adb call} and {@code adb logcat -s MobileMCP} read it.
     */
    static final class ToLogcat implements ReplyTarget {
        @Override
        public void send(String spec, String flat, String requestId, String errorCode) {
            Log.i(McpToolService.LOG_TAG, spec); // one line, so that adb logcat -s reads it whole
        }
    }
}

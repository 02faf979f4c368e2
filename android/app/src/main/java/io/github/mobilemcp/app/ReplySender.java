package io.github.mobilemcp.app;

import android.app.PendingIntent;
import android.content.Context;
import android.content.Intent;
import android.os.Build;
import android.os.Bundle;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.intentbridge.Reply;

/**
 * Delivers a reply: as fill-in extras through the caller's PendingIntent, or to logcat when the
 * request had no callback. Called on the worker thread; it never throws, because an uncaught
 * exception on any thread kills an Android app.
 */
final class ReplySender {
    private final Context context;

    ReplySender(Context context) {
        this.context = context;
    }

    /** Sends reply to the caller of request. */
    void send(ToolRequest request, Reply reply) {
        PendingIntent callback = request.callback();
        if (callback == null) {
            // adb testing: logcat is the reply channel; one line, so `adb logcat -s` reads it whole.
            Log.i(ToolService.LOG_TAG, reply.logLine());
            return;
        }
        // A fill-in extra only lands in a mutable PendingIntent: an immutable one would deliver
        // an empty broadcast. API 31+ can tell; older platforms cannot, and deliver it empty.
        if (Build.VERSION.SDK_INT >= 31 && callback.isImmutable()) {
            Log.e(ToolService.LOG_TAG, dropped(reply, request,
                    "its callback is immutable; create it with PendingIntent.FLAG_MUTABLE"));
            return;
        }
        try {
            callback.send(context, 0, fillIn(reply));
        } catch (PendingIntent.CanceledException e) {
            Log.e(ToolService.LOG_TAG, dropped(reply, request, "its callback was cancelled"));
        } catch (RuntimeException e) {
            Log.e(ToolService.LOG_TAG, dropped(reply, request, "sending it failed"), e);
        }
    }

    /**
     * The reply as fill-in extras: the specification's layout always, and for a prototype request
     * also the flat layout and the request id, which is where the prototype agent reads them.
     */
    static Intent fillIn(Reply reply) {
        return new Intent().putExtras(extras(reply));
    }

    /**
     * The reply's extras, the same for an Intent reply and for a binding reply's Message data:
     * {@code mobile-mcp-response} always, and for a prototype request also {@code response} and
     * {@code mcp_request_id}.
     */
    static Bundle extras(Reply reply) {
        Bundle extras = new Bundle();
        extras.putString(Intentbridge.ExtraResponse, reply.specJSON());
        if (reply.prototype()) {
            extras.putString(Intentbridge.ExtraPrototypeResponse, reply.flatJSON());
            extras.putString(Intentbridge.ExtraPrototypeRequestID, reply.requestID());
        }
        return extras;
    }

    /**
     * Says which reply was lost and why, without its content: a reply can hold phone numbers, and
     * logcat is no place for them.
     */
    private static String dropped(Reply reply, ToolRequest request, String why) {
        return dropped(reply, request.callerPackage(), why);
    }

    /** The same, for a reply to callerPackage by any transport. */
    static String dropped(Reply reply, String callerPackage, String why) {
        String outcome = reply.success() ? "success" : "failure " + reply.errorCode();
        return "reply to request \"" + reply.requestID() + "\" from " + callerPackage
                + " (" + outcome + ") was not delivered: " + why;
    }
}

package io.github.mobilemcp.sdk;

import android.content.pm.PackageManager;
import android.os.Bundle;
import android.os.Handler;
import android.os.Looper;
import android.os.Message;
import android.os.Messenger;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.BindingMessages;

/**
 * Binding mode (the Mobile-MCP spec §3.1, the first way): an agent binds to the tool service, gets a
 * Messenger, and sends each request as a Message; the reply comes back as a Message to the
 * request's {@code replyTo}. One binding carries any number of requests, and the agent matches
 * replies to requests by the request id in the JSON.
 *
 * <p>The protocol, compatible with the prototype tool's {@code MSG_INVOKE}/{@code MSG_RESULT}:
 * <ul>
 *   <li>Request: {@code what = }{@link BindingMessages#MSG_INVOKE}, data holding the request JSON as
 *       a String under {@code mobile-mcp-request} (or the prototype's {@code request}), and
 *       {@code replyTo} set. {@code arg1} is echoed in the reply, so an agent may number its
 *       requests too.
 *   <li>Reply: {@code what = }{@link BindingMessages#MSG_RESULT}, {@code arg1} as in the request,
 *       and data holding the same extras as an Intent reply.
 *   <li>A Message without {@code replyTo} is logged and dropped: there is nowhere to answer.
 *       Other {@code what} codes are logged and ignored.
 * </ul>
 *
 * <p>The caller is the package of the Message's {@code sendingUid}, which Binder sets and the
 * sender cannot forge ({@link #callerOf}).
 *
 * <p>Threading: messages arrive on the service's own HandlerThread, never the main thread; each
 * request then passes the engine's admission and runs on the process's workers, by turns with other
 * callers' requests.
 */
final class BindingHandler extends Handler {
    private final McpToolService service;

    BindingHandler(Looper looper, McpToolService service) {
        super(looper);
        this.service = service;
    }

    @Override
    public void handleMessage(Message msg) {
        if (msg.what == BindingMessages.MSG_AWAIT_CONSENT || msg.what == BindingMessages.MSG_CONSENT_QUESTION) {
            consent(msg);
            return;
        }
        if (msg.what != BindingMessages.MSG_INVOKE) {
            Log.w(McpToolService.LOG_TAG, "ignored a binding message with what=" + msg.what
                    + "; send MSG_INVOKE (" + BindingMessages.MSG_INVOKE + ")");
            return;
        }
        // msg is recycled when this method returns: copy what the worker needs.
        Messenger replyTo = msg.replyTo;
        String caller = callerOf(service.getPackageManager(), msg.sendingUid);
        if (replyTo == null) {
            Log.w(McpToolService.LOG_TAG, "dropped a binding request from " + caller
                    + " without replyTo: there is nowhere to send its reply");
            return;
        }
        service.runBound(request(msg), caller, new Replies.ToMessenger(replyTo, msg.arg1, caller));
    }

    /** A consent Message: the sending app waits for the user's decision about it, or asks for the question. */
    private void consent(Message msg) {
        String caller = callerOf(service.getPackageManager(), msg.sendingUid);
        if (msg.replyTo == null || caller.isEmpty()) {
            Log.w(McpToolService.LOG_TAG, "dropped a consent message (what=" + msg.what + ") from "
                    + (caller.isEmpty() ? "uid " + msg.sendingUid : caller) + ": it needs a replyTo and an app Android names");
            return;
        }
        ConsentWatch watch = ToolRuntime.get(service).consents;
        if (msg.what == BindingMessages.MSG_AWAIT_CONSENT) {
            watch.await(caller, msg.replyTo, msg.arg1);
        } else {
            watch.question(caller, msg.replyTo, msg.arg1);
        }
    }

    /** The request JSON in msg's data, or "" (which gets an invalid_request reply). */
    private static String request(Message msg) {
        try {
            Bundle data = msg.peekData();
            if (data == null) {
                return "";
            }
            String json = data.getString(Intentbridge.ExtraRequest);
            if (json == null) {
                json = data.getString(Intentbridge.ExtraPrototypeRequest);
            }
            return json == null ? "" : json;
        } catch (RuntimeException e) {
            // The data comes from another app: unparcelling it may fail.
            Log.e(McpToolService.LOG_TAG, "unreadable binding request data", e);
            return "";
        }
    }

    /**
     * The calling app of a binding request: {@code PackageManager.getNameForUid(uid)}. For an
     * ordinary app that is its package name. For apps that share a user id (android:sharedUserId,
     * deprecated) it is {@code "<sharedUserId>:<uid>"}: such apps are one principal to Android, which
     * lets them read each other's data, so they get one consent between them. "" when the uid has
     * no name, which the engine treats as a request without a caller.
     */
    static String callerOf(PackageManager pm, int uid) {
        if (uid < 0) {
            return ""; // not set: the Message did not come through a Messenger
        }
        String name = pm.getNameForUid(uid);
        return name == null ? "" : name;
    }
}

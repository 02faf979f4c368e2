package io.github.mobilemcp.sdk;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.net.Uri;
import android.util.Log;

/**
 * Receives the consent notification's Deny button, which records the refusal, and its dismissal,
 * which keeps the question away for a while. Allow is not here: it opens
 * the SDK's consent confirmation screen, because any app with notification access can fire a notification's
 * buttons, and a grant must come from the user's own tap. Not exported (the SDK's manifest declares
 * it): only the app's own PendingIntents reach it. It works in a process that runs no request.
 *
 * <p>Recording writes a file and syncs it, so it runs on a background thread, with the receiver's
 * {@code goAsync} keeping the broadcast alive until it is done. The receiver Android creates is
 * {@code io.github.mobilemcp.sdk.internal.ConsentReceiver}, which hands each broadcast here.
 */
final class ConsentBroadcasts {
    private ConsentBroadcasts() {}

    static final String ACTION_DENY = "io.github.mobilemcp.sdk.CONSENT_DENY";
    static final String ACTION_DISMISSED = "io.github.mobilemcp.sdk.CONSENT_DISMISSED";

    /** receiver's broadcast intent. */
    static void onReceive(BroadcastReceiver receiver, Context context, Intent intent) {
        String action = intent.getAction();
        Uri data = intent.getData();
        if (data == null || !"package".equals(data.getScheme())
                || !(ACTION_DENY.equals(action) || ACTION_DISMISSED.equals(action))) {
            Log.w(McpToolService.LOG_TAG, "ignored a consent broadcast without a decision: " + intent);
            return;
        }
        String callerPackage = data.getSchemeSpecificPart();
        ToolRuntime runtime = ToolRuntime.get(context);
        if (ACTION_DISMISSED.equals(action)) {
            runtime.dismissedQuestion(callerPackage);
            return;
        }
        BroadcastReceiver.PendingResult pending = receiver.goAsync();
        runtime.background().execute(() -> {
            try {
                runtime.decide(callerPackage, false);
            } catch (Exception e) {
                // The notification stays, so the user can try again.
                Log.e(McpToolService.LOG_TAG, "could not record the decision about " + callerPackage, e);
            } finally {
                pending.finish();
            }
        });
    }
}

package io.github.mobilemcp.sdk;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.net.Uri;
import android.util.Log;

/**
 * Receives the Allow and Deny buttons of the consent notification and records the decision. Not
 * exported (the SDK's manifest declares it): only the app's own PendingIntents reach it. It works
 * in a process that runs no request, such as after a restart.
 *
 * <p>Recording writes a file and syncs it, so it runs on a background thread, with
 * {@link #goAsync} keeping the broadcast alive until it is done.
 */
public class ConsentReceiver extends BroadcastReceiver {
    static final String ACTION_ALLOW = "io.github.mobilemcp.sdk.CONSENT_ALLOW";
    static final String ACTION_DENY = "io.github.mobilemcp.sdk.CONSENT_DENY";

    @Override
    public void onReceive(Context context, Intent intent) {
        String action = intent.getAction();
        Uri data = intent.getData();
        if (data == null || !"package".equals(data.getScheme())
                || !(ACTION_ALLOW.equals(action) || ACTION_DENY.equals(action))) {
            Log.w(McpToolService.LOG_TAG, "ignored a consent broadcast without a decision: " + intent);
            return;
        }
        String callerPackage = data.getSchemeSpecificPart();
        boolean allow = ACTION_ALLOW.equals(action);
        ToolRuntime runtime = ToolRuntime.get(context);
        PendingResult pending = goAsync();
        runtime.background().execute(() -> {
            try {
                runtime.decide(callerPackage, allow);
            } catch (Exception e) {
                // The notification stays, so the user can try again.
                Log.e(McpToolService.LOG_TAG, "could not record the decision about " + callerPackage, e);
            } finally {
                pending.finish();
            }
        });
    }
}

package io.github.mobilemcp.app;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.net.Uri;
import android.util.Log;

/**
 * Receives the Allow and Deny buttons of {@link ConsentPrompt}'s notification and records the
 * decision in Go. Not exported (see the manifest): only this app's own PendingIntents reach it.
 *
 * <p>Recording writes a file and syncs it, so it runs on the app's background thread, with
 * {@link #goAsync} keeping the broadcast alive until it is done.
 */
public class ConsentReceiver extends BroadcastReceiver {
    static final String ACTION_ALLOW = "io.github.mobilemcp.app.CONSENT_ALLOW";
    static final String ACTION_DENY = "io.github.mobilemcp.app.CONSENT_DENY";

    @Override
    public void onReceive(Context context, Intent intent) {
        String action = intent.getAction();
        Uri data = intent.getData();
        if (data == null || !"package".equals(data.getScheme())
                || !(ACTION_ALLOW.equals(action) || ACTION_DENY.equals(action))) {
            Log.w(ToolService.LOG_TAG, "ignored a consent broadcast without a decision: " + intent);
            return;
        }
        String callerPackage = data.getSchemeSpecificPart();
        boolean allow = ACTION_ALLOW.equals(action);
        ToolApp app = ToolApp.from(context);
        PendingResult pending = goAsync();
        app.background().execute(() -> {
            try {
                app.decide(callerPackage, allow);
            } catch (Exception e) {
                // The notification stays, so the user can try again.
                Log.e(ToolService.LOG_TAG, "could not record the decision about " + callerPackage, e);
            } finally {
                pending.finish();
            }
        });
    }
}

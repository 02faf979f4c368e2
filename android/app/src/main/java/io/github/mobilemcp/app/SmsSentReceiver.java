package io.github.mobilemcp.app;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;

/**
 * Receives each SMS part's sent result, which the telephony stack sends through the part's
 * PendingIntent, and hands it to the send waiting for it ({@link AndroidPlatform#sent}).
 *
 * <p>Declared in the manifest, not exported: only this app's own PendingIntents reach it. A
 * manifest receiver, because Android 14 queues the broadcasts of runtime-registered receivers while
 * the app is cached (see AndroidPlatform), and a waiting send would time out. It runs on the main
 * thread, which the engine never blocks.
 */
public class SmsSentReceiver extends BroadcastReceiver {
    @Override
    public void onReceive(Context context, Intent intent) {
        if (AndroidPlatform.ACTION_SENT.equals(intent.getAction())) {
            AndroidPlatform.sent(intent.getStringExtra(AndroidPlatform.EXTRA_SEND_ID),
                    intent.getIntExtra(AndroidPlatform.EXTRA_PART, -1), getResultCode());
        }
    }
}

package io.github.mobilemcp.sdk;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.net.Uri;
import android.util.Log;

/**
 * Forgets the user's decision about an app when it is removed from the phone
 * ({@code ACTION_PACKAGE_FULLY_REMOVED}, which manifest receivers still get from Android 8 on), so
 * that another app installed later under the same name is asked again. The SDK's manifest declares
 * it ({@code io.github.mobilemcp.sdk.internal.PackageRemovedReceiver}, which hands each broadcast
 * here), not exported: only the system sends it. The engine also drops a decision whose package has
 * another signer when that caller next calls, in case this broadcast was missed.
 */
final class PackageRemovals {
    private PackageRemovals() {}

    /** receiver's broadcast intent. */
    static void onReceive(BroadcastReceiver receiver, Context context, Intent intent) {
        Uri data = intent.getData();
        if (!Intent.ACTION_PACKAGE_FULLY_REMOVED.equals(intent.getAction()) || data == null
                || !"package".equals(data.getScheme())) {
            return;
        }
        String removed = data.getSchemeSpecificPart();
        ToolRuntime runtime = ToolRuntime.get(context);
        BroadcastReceiver.PendingResult pending = receiver.goAsync();
        runtime.background().execute(() -> {
            try {
                runtime.forget(removed);
            } catch (Exception e) {
                Log.e(McpToolService.LOG_TAG, "could not forget the decision about " + removed + ", which was removed", e);
            } finally {
                pending.finish();
            }
        });
    }
}

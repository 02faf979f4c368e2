package io.github.mobilemcp.app;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.net.Uri;

/**
 * Forgets the user's choice to share an app's tool over the gateway when the app is removed from
 * the phone ({@code ACTION_PACKAGE_FULLY_REMOVED}, which manifest receivers still get from Android 8
 * on), so that another app installed later under the same name is not shared until the user turns
 * it on ({@link Gateway#forget}). Declared in the manifest, not exported: only the system sends it,
 * and it arrives while the server is off too. The gateway also drops a share whose package has
 * another signer, in case this broadcast was missed.
 */
public class SharedPackageRemovedReceiver extends BroadcastReceiver {
    @Override
    public void onReceive(Context context, Intent intent) {
        Uri data = intent.getData();
        if (Intent.ACTION_PACKAGE_FULLY_REMOVED.equals(intent.getAction()) && data != null
                && "package".equals(data.getScheme())) {
            Gateway.forget(context, data.getSchemeSpecificPart());
        }
    }
}

package io.github.mobilemcp.app;

import android.annotation.TargetApi;
import android.app.AppOpsManager;
import android.content.Context;
import android.content.pm.InstallSourceInfo;
import android.content.pm.PackageInstaller;
import android.content.pm.PackageManager;
import android.os.Build;
import android.os.Process;

/**
 * Android's restricted settings (Android 13+, extended in 15): for an app installed from a file,
 * such as an APK downloaded in a browser or opened in a file manager, Android blocks some
 * permissions, on Android 15 the SMS and phone ones among them, until the user allows restricted
 * settings in the app's info screen (⋮, "Allow restricted settings"). The permission request then
 * comes back denied without a dialog, and nothing tells the user why.
 *
 * <p>Android keeps that decision in the app op {@code android:access_restricted_settings}
 * ({@code AppOpsManager.OPSTR_ACCESS_RESTRICTED_SETTINGS}, not in the public SDK): errored while
 * the settings are restricted, allowed once the user allowed them. Where the op cannot be read,
 * how the app was installed stands in: from a local or downloaded file.
 */
final class RestrictedSettings {
    /** The app op that holds the user's "Allow restricted settings". */
    static final String OP = "android:access_restricted_settings";

    private RestrictedSettings() {}

    /** Whether Android restricts this app's settings now, so that it may block SEND_SMS and READ_PHONE_STATE. */
    static boolean restricted(Context context) {
        if (Build.VERSION.SDK_INT < 33) {
            return false; // no restricted settings before Android 13
        }
        return restrictedSince33(context);
    }

    @TargetApi(33) // called only from API 33 on
    private static boolean restrictedSince33(Context context) {
        try {
            int mode = context.getSystemService(AppOpsManager.class)
                    .unsafeCheckOpNoThrow(OP, Process.myUid(), context.getPackageName());
            return mode == AppOpsManager.MODE_ERRORED;
        } catch (IllegalArgumentException | SecurityException unknownOp) {
            // A build without the op, or one that hides it: the install source tells.
        }
        try {
            InstallSourceInfo source = context.getPackageManager().getInstallSourceInfo(context.getPackageName());
            int from = source.getPackageSource();
            return from == PackageInstaller.PACKAGE_SOURCE_LOCAL_FILE || from == PackageInstaller.PACKAGE_SOURCE_DOWNLOADED_FILE;
        } catch (PackageManager.NameNotFoundException | RuntimeException e) {
            return false;
        }
    }
}

package io.github.mobilemcp.sdk.testing;

import static org.robolectric.Shadows.shadowOf;

import android.content.Context;
import android.content.pm.ApplicationInfo;
import android.content.pm.PackageInfo;
import android.content.pm.Signature;
import android.content.pm.SigningInfo;
import android.os.Build;
import android.os.Process;

import java.nio.charset.StandardCharsets;

import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowPackageManager;
import org.robolectric.shadows.ShadowSigningInfo;

/**
 * Apps on the test's phone, as the Tool SDK sees callers: a package with a uid and a signing
 * certificate. The SDK keeps the user's decisions with the caller's certificate, so a caller must be
 * installed for a decision about it to be recorded; {@link McpToolRule} installs the callers it
 * calls as. Use it to install one yourself, or to sign one anew (another app under the same name).
 */
public final class InstalledApps {
    private InstalledApps() {}

    /**
     * Installs pkg under uid, signed with a certificate whose bytes are certificate's UTF-8 (any
     * string makes a distinct signer), and names the uid after it, as a phone's PackageManager does.
     */
    public static void install(Context context, String pkg, int uid, String certificate) {
        PackageInfo info = new PackageInfo();
        info.packageName = pkg;
        info.applicationInfo = new ApplicationInfo();
        info.applicationInfo.packageName = pkg;
        info.applicationInfo.uid = uid;
        setSigner(info, certificate);
        ShadowPackageManager pm = shadowOf(context.getPackageManager());
        pm.installPackage(info);
        pm.setNameForUid(uid, pkg);
        pm.setPackagesForUid(uid, pkg);
    }

    /**
     * The uid pkg sends from: this app's own for this app, the installed package's, or, for a
     * package not installed yet, a new one it is installed under with a certificate of its own.
     * The PackageManager names the uid after pkg, as a phone's does.
     */
    public static int uidOf(Context context, String pkg) {
        ShadowPackageManager pm = shadowOf(context.getPackageManager());
        if (pkg.equals(context.getPackageName())) {
            pm.setNameForUid(Process.myUid(), pkg);
            return Process.myUid();
        }
        PackageInfo installed = pm.getInternalMutablePackageInfo(pkg);
        if (installed == null) {
            install(context, pkg, nextUid++, "the certificate of " + pkg);
            installed = pm.getInternalMutablePackageInfo(pkg);
        }
        return installed.applicationInfo.uid;
    }

    /** The uid of the next package uidOf installs: past those of the apps a test installs itself. */
    private static int nextUid = 10_900;

    /** Signs the installed pkg (this app's own, say) with certificate, as install does. */
    public static void sign(Context context, String pkg, String certificate) {
        setSigner(shadowOf(context.getPackageManager()).getInternalMutablePackageInfo(pkg), certificate);
    }

    /**
     * Where the PackageManager keeps a package's certificate on this SDK level: SigningInfo (what
     * GET_SIGNING_CERTIFICATES reads) from API 28, which has no such class before; signatures
     * (GET_SIGNATURES) below.
     */
    @SuppressWarnings("deprecation") // PackageInfo.signatures, what API 24 to 27 have
    private static void setSigner(PackageInfo info, String certificate) {
        Signature signer = new Signature(certificate.getBytes(StandardCharsets.UTF_8));
        if (Build.VERSION.SDK_INT >= 28) {
            info.signingInfo = signedWith(signer);
        } else {
            info.signatures = new Signature[] {signer};
        }
    }

    private static SigningInfo signedWith(Signature signer) {
        SigningInfo signing = Shadow.newInstanceOf(SigningInfo.class);
        ShadowSigningInfo shadow = Shadow.extract(signing);
        shadow.setSignatures(new Signature[] {signer});
        return signing;
    }
}

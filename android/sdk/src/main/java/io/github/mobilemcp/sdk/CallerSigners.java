package io.github.mobilemcp.sdk;

import android.content.pm.PackageManager;

import io.github.mobilemcp.intentbridge.SignerSource;
import io.github.mobilemcp.sdk.internal.PackageSigners;

/**
 * Tells the engine which app holds a caller's package name now ({@link PackageSigners}). The user's
 * decisions are kept with it, so a decision about an app does not pass to another app that later
 * takes its name (after it was removed), and the engine drops a decision whose package now has
 * another signer.
 */
final class CallerSigners implements SignerSource {
    private final PackageManager pm;

    CallerSigners(PackageManager pm) {
        this.pm = pm;
    }

    /**
     * The signer of callerPackage ({@link PackageSigners#sha256}). Throws when no such package is
     * installed or it has no certificate. A caller named "sharedUserId:uid" (apps sharing a user
     * id, which must share a signer) is the first package of that uid.
     */
    @Override
    public String signingCertificateSHA256(String callerPackage) throws Exception {
        String pkg = callerPackage;
        int colon = callerPackage.lastIndexOf(':');
        if (colon >= 0) {
            String[] shared = pm.getPackagesForUid(Integer.parseInt(callerPackage.substring(colon + 1)));
            if (shared == null || shared.length == 0) {
                throw new PackageManager.NameNotFoundException(callerPackage);
            }
            pkg = shared[0];
        }
        return PackageSigners.sha256(pm, pkg);
    }
}

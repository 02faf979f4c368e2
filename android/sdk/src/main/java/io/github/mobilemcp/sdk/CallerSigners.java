package io.github.mobilemcp.sdk;

import android.annotation.TargetApi;
import android.content.pm.PackageInfo;
import android.content.pm.PackageManager;
import android.content.pm.Signature;
import android.content.pm.SigningInfo;
import android.os.Build;
import android.text.TextUtils;

import io.github.mobilemcp.intentbridge.SignerSource;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Tells the engine which app holds a package name now: the SHA-256 of the certificate it is signed
 * with. The user's decisions are kept with it, so a decision about an app does not pass to another
 * app that later takes its name (after it was removed), and the engine drops a decision whose
 * package now has another signer.
 */
final class CallerSigners implements SignerSource {
    private final PackageManager pm;

    CallerSigners(PackageManager pm) {
        this.pm = pm;
    }

    /**
     * The hex SHA-256 of each current signing certificate of callerPackage, sorted and
     * comma-separated. Throws when no such package is installed or it has no certificate. A caller
     * named "sharedUserId:uid" (apps sharing a user id, which must share a signer) is the first
     * package of that uid.
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
        Signature[] signers = signers(pkg);
        if (signers == null || signers.length == 0) {
            throw new IllegalStateException(pkg + " has no signing certificate");
        }
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        List<String> digests = new ArrayList<>();
        for (Signature s : signers) {
            StringBuilder hex = new StringBuilder(64);
            for (byte b : sha256.digest(s.toByteArray())) {
                hex.append(String.format(Locale.ROOT, "%02x", b));
            }
            digests.add(hex.toString());
        }
        Collections.sort(digests);
        return TextUtils.join(",", digests); // String.join is API 26
    }

    /** The certificates pkg is signed with now (not the ones it rotated away from). */
    @SuppressWarnings("deprecation") // GET_SIGNATURES and PackageInfo.signatures below API 28
    private Signature[] signers(String pkg) throws PackageManager.NameNotFoundException {
        if (Build.VERSION.SDK_INT >= 28) {
            return currentSigners(pkg);
        }
        PackageInfo info = pm.getPackageInfo(pkg, PackageManager.GET_SIGNATURES);
        return info.signatures;
    }

    @TargetApi(28) // called only from API 28 on
    private Signature[] currentSigners(String pkg) throws PackageManager.NameNotFoundException {
        SigningInfo info = pm.getPackageInfo(pkg, PackageManager.GET_SIGNING_CERTIFICATES).signingInfo;
        return info == null ? null : info.getApkContentsSigners();
    }
}

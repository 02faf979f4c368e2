package io.github.mobilemcp.sdk.internal;

import android.annotation.TargetApi;
import android.content.pm.PackageInfo;
import android.content.pm.PackageManager;
import android.content.pm.Signature;
import android.content.pm.SigningInfo;
import android.os.Build;
import android.text.TextUtils;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * Which app holds a package name now: the SHA-256 of the certificates it is signed with. A package
 * name is not an app (after an app is removed, any app can be installed under its name), so the
 * SDK keeps the user's consent with this, as {@code consents.json}'s {@code signer}.
 *
 * <p>The SMS app's gateway, which serves other apps' tools, keeps the user's choice to share an
 * app's tool with the same value, so that the choice does not pass to another app that takes the
 * name.
 */
@InternalApi
public final class PackageSigners {
    private PackageSigners() {}

    /**
     * The hex SHA-256 of each current signing certificate of the installed packageName (not the
     * ones it rotated away from), sorted and comma-separated. Throws NameNotFoundException when no
     * such package is installed, IllegalStateException when it has no certificate.
     */
    public static String sha256(PackageManager pm, String packageName) throws PackageManager.NameNotFoundException {
        Signature[] signers = signers(pm, packageName);
        if (signers == null || signers.length == 0) {
            throw new IllegalStateException(packageName + " has no signing certificate");
        }
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every Java platform has SHA-256", e);
        }
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

    @SuppressWarnings("deprecation") // GET_SIGNATURES and PackageInfo.signatures below API 28
    private static Signature[] signers(PackageManager pm, String pkg) throws PackageManager.NameNotFoundException {
        if (Build.VERSION.SDK_INT >= 28) {
            return currentSigners(pm, pkg);
        }
        PackageInfo info = pm.getPackageInfo(pkg, PackageManager.GET_SIGNATURES);
        return info.signatures;
    }

    @TargetApi(28) // called only from API 28 on
    private static Signature[] currentSigners(PackageManager pm, String pkg) throws PackageManager.NameNotFoundException {
        SigningInfo info = pm.getPackageInfo(pkg, PackageManager.GET_SIGNING_CERTIFICATES).signingInfo;
        return info == null ? null : info.getApkContentsSigners();
    }
}

package io.github.mobilemcp.sdk.internal;

import android.app.Activity;
import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.os.Bundle;
import android.view.MotionEvent;

import io.github.mobilemcp.sdk.ToolSettings;

import org.jspecify.annotations.Nullable;

/**
 * The seam between the Android components that only the SDK's manifest names (the adb provider,
 * the consent receiver and screen, the package-removed receiver, all in this package, so that they
 * are no part of the SDK's API) and the sdk package, which runs what they receive. The sdk package
 * gives this class its implementation ({@link #provide}) as it loads, as it does for
 * {@link EngineAccess}.
 */
@InternalApi
public final class Components {
    private Components() {}

    /** What the sdk package does for the components. */
    @InternalApi
    public interface Provider {
        /** Runs a call of the adb provider from uid, which holds android.permission.DUMP or not. */
        Bundle adbCall(Context context, String method, @Nullable String arg, int uid, boolean holdsDump);

        /** The consent notification's Deny or dismissal, received by receiver. */
        void consentBroadcast(BroadcastReceiver receiver, Context context, Intent intent);

        /** An app was removed from the phone, as receiver heard. */
        void packageRemoved(BroadcastReceiver receiver, Context context, Intent intent);

        /** How the consent screen names the calling app callerPackage. */
        String callerLabel(Context context, String callerPackage);

        /** How the consent screen names this tool. */
        String toolLabel(Context context);

        /** The user tapped Allow (allow) or Deny about callerPackage in the consent screen: records it. */
        void decide(Context context, String callerPackage, boolean allow);

        /** Makes every touch of screen re-arm the settle time of its guarded controls (TouchGuard). */
        void settleAfterEveryTouch(Activity screen);

        /** A touch of screen ended, after its controls judged it (TouchGuard). */
        void touchEnded(Activity screen, MotionEvent event);
    }

    private static volatile @Nullable Provider provider;

    /** Called by the sdk package, once, as the class that holds the engines loads. */
    public static void provide(Provider p) {
        provider = p;
    }

    /** The sdk package's implementation, loading it first for context's app. */
    static Provider provider(Context context) {
        ToolSettings.get(context); // loads the sdk's engine holder, which provides
        Provider p = provider;
        if (p == null) {
            throw new IllegalStateException("the sdk has not loaded its engine holder");
        }
        return p;
    }
}

package io.github.mobilemcp.sdk;

import android.annotation.TargetApi;
import android.app.PendingIntent;
import android.content.Intent;
import android.os.Build;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Intentbridge;

import org.jspecify.annotations.Nullable;

/**
 * What an agent's Intent carries: the request JSON and the callback, under the Mobile-MCP spec's
 * extras or the prototype agent's. Read on the main thread, used on a worker; immutable.
 */
final class IntentRequest {
    final String json;
    /** The caller's PendingIntent, or null (adb testing). */
    final @Nullable PendingIntent callback;

    private IntentRequest(String json, @Nullable PendingIntent callback) {
        this.json = json;
        this.callback = callback;
    }

    /**
     * Reads the extras of intent, which may be null. A missing request becomes "", which the engine
     * answers with an invalid_request failure that names the extra to use.
     */
    static IntentRequest from(@Nullable Intent intent) {
        if (intent == null) {
            return new IntentRequest("", null);
        }
        String json = stringExtra(intent, Intentbridge.ExtraRequest);
        if (json == null) {
            json = stringExtra(intent, Intentbridge.ExtraPrototypeRequest);
        }
        PendingIntent callback = callbackExtra(intent, Intentbridge.ExtraCallback);
        if (callback == null) {
            callback = callbackExtra(intent, Intentbridge.ExtraPrototypeCallback);
        }
        return new IntentRequest(json == null ? "" : json, callback);
    }

    /**
     * The package that created the callback: the caller as far as an Intent tells, which is a
     * claim only. Android vouches that this package created the PendingIntent, not that it sent
     * this request: any app it handed the PendingIntent to can send it as its own callback. So it
     * keys replies for replay and runs read-only capabilities, but the engine refuses it anything
     * that changes state (see ToolRuntime.handle). "" without a callback.
     */
    String callerPackage() {
        if (callback == null) {
            return "";
        }
        String creator = callback.getCreatorPackage();
        return creator == null ? "" : creator;
    }

    // Extras come from another app: a wrong type or an unreadable Parcelable must not crash us.

    private static @Nullable String stringExtra(Intent intent, String name) {
        try {
            return intent.getStringExtra(name);
        } catch (RuntimeException e) {
            Log.e(McpToolService.LOG_TAG, "unreadable extra " + name, e);
            return null;
        }
    }

    @SuppressWarnings("deprecation") // the typed overload is used from API 34 on
    private static @Nullable PendingIntent callbackExtra(Intent intent, String name) {
        try {
            if (Build.VERSION.SDK_INT >= 34) {
                // Typed since API 33, but unreliable there; androidx's IntentCompat waits for 34 too.
                return typedCallbackExtra(intent, name);
            }
            Object extra = intent.getParcelableExtra(name);
            return extra instanceof PendingIntent ? (PendingIntent) extra : null;
        } catch (RuntimeException e) {
            Log.e(McpToolService.LOG_TAG, "unreadable extra " + name, e);
            return null;
        }
    }

    @TargetApi(34) // called only from API 34 on
    private static @Nullable PendingIntent typedCallbackExtra(Intent intent, String name) {
        return intent.getParcelableExtra(name, PendingIntent.class);
    }
}

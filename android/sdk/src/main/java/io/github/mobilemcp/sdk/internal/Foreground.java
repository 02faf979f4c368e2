package io.github.mobilemcp.sdk.internal;

import android.annotation.TargetApi;
import android.app.Notification;
import android.app.NotificationChannel;
import android.app.NotificationManager;
import android.app.Service;
import android.content.Context;
import android.content.pm.ServiceInfo;
import android.os.Build;
import android.util.Log;

import io.github.mobilemcp.sdk.McpToolService;

/**
 * Makes a service a foreground service in the way every Android level from 24 on accepts, for a
 * service declared with {@code android:foregroundServiceType="specialUse"}, the SDK's tool service
 * and any other service of the app that must keep running while the user is elsewhere (the SMS
 * app's MCP server is one). See the guide, "The foreground service".
 *
 * <p>The type passed to {@code startForeground} must be one the manifest declares:
 * <ul>
 *   <li>API 34+: {@code FOREGROUND_SERVICE_TYPE_SPECIAL_USE}. An app targeting 34 must pass a type;
 *       specialUse needs the permission {@code FOREGROUND_SERVICE_SPECIAL_USE} (the SDK's manifest
 *       requests it) and the property {@code android.app.PROPERTY_SPECIAL_USE_FGS_SUBTYPE} on the
 *       service.
 *   <li>API 29 to 33: {@code FOREGROUND_SERVICE_TYPE_NONE}. specialUse does not exist there, and
 *       none is a subset of any declared types, so Android's check passes whatever the manifest
 *       says.
 *   <li>API 24 to 28: the two-argument call; there are no types.
 * </ul>
 *
 * <p><b>When Android refuses.</b> After {@code startForegroundService}, Android waits for
 * {@code startForeground}; a service that stops while it still waits crashes its app
 * ("Context.startForegroundService() did not then call Service.startForeground()"), and one that
 * never calls it is declared not responding. So what matters is whether Android has stopped
 * waiting when {@code startForeground} throws. In AOSP's {@code ActiveServices.
 * setServiceForegroundInnerLocked} (Android 10 to 15) two checks come before it stops waiting:
 * the {@code FOREGROUND_SERVICE} permission (the SDK's manifest requests it, and a test checks
 * the merged manifest) and "the type passed is a subset of the manifest's", an
 * {@code IllegalArgumentException}. Every later refusal
 * ({@code ForegroundServiceStartNotAllowedException} on 12+, a type's missing permission or no
 * type in the manifest on 14+) comes after it: the service is then merely not in the foreground,
 * and may run its work and stop as usual. So on a type mismatch (a manifest that declares another
 * type than specialUse, or whose value a device did not resolve) {@link #start} calls
 * {@code startForeground} again with {@code FOREGROUND_SERVICE_TYPE_MANIFEST}, the manifest's own
 * types, which pass that check by definition; whatever that throws comes after Android stopped
 * waiting. Every refusal is logged at ERROR under {@link McpToolService#LOG_TAG}, never thrown.
 */
@InternalApi
public final class Foreground {
    private Foreground() {}

    /**
     * Makes service a foreground service with notification under notificationId, with the type
     * this API level needs (see the class comment). Returns whether Android accepted it; when it
     * did not, it has logged why, and the service may go on and stop as usual.
     */
    @SuppressWarnings("deprecation") // FOREGROUND_SERVICE_TYPE_NONE: deprecated in 34, used below it
    public static boolean start(Service service, int notificationId, Notification notification) {
        try {
            if (Build.VERSION.SDK_INT >= 29) {
                startTyped(service, notificationId, notification, Build.VERSION.SDK_INT >= 34
                        ? ServiceInfo.FOREGROUND_SERVICE_TYPE_SPECIAL_USE : ServiceInfo.FOREGROUND_SERVICE_TYPE_NONE);
            } else {
                service.startForeground(notificationId, notification);
            }
            return true;
        } catch (IllegalArgumentException mismatch) {
            // Thrown while Android still waits: stopping now would crash the app.
            Log.e(McpToolService.LOG_TAG, service.getClass().getName() + ": startForeground refused the type: "
                    + mismatch.getMessage() + "; declare android:foregroundServiceType=\"specialUse\" on the service."
                    + " Trying again with the types the manifest declares.");
            if (Build.VERSION.SDK_INT < 29) {
                return false; // no types before 29, so not a type mismatch; nothing else to try
            }
            try {
                startTyped(service, notificationId, notification, ServiceInfo.FOREGROUND_SERVICE_TYPE_MANIFEST);
                return true;
            } catch (RuntimeException e) {
                refused(service, e);
                return false;
            }
        } catch (RuntimeException e) {
            refused(service, e);
            return false;
        }
    }

    /** Leaves the foreground and removes the notification, when the service stops. */
    public static void stop(Service service) {
        service.stopForeground(Service.STOP_FOREGROUND_REMOVE);
    }

    /**
     * A notification builder on channelId, for any API level: from 26 the channel is created (a
     * no-op when it exists) with the name, description and importance given; before 26, when
     * there are no channels, the notification's own priority plays the importance.
     */
    public static Notification.Builder notificationBuilder(Context context, String channelId, CharSequence name,
            CharSequence description, int importance) {
        if (Build.VERSION.SDK_INT >= 26) {
            return channelBuilder(context, channelId, name, description, importance);
        }
        return legacyBuilder(context, importance);
    }

    @TargetApi(26) // called only from API 26 on
    private static Notification.Builder channelBuilder(Context context, String channelId, CharSequence name,
            CharSequence description, int importance) {
        NotificationChannel channel = new NotificationChannel(channelId, name, importance);
        channel.setDescription(description.toString());
        context.getSystemService(NotificationManager.class).createNotificationChannel(channel);
        return new Notification.Builder(context, channelId);
    }

    @SuppressWarnings("deprecation") // the builder without a channel, and priorities: what API 24 and 25 have
    private static Notification.Builder legacyBuilder(Context context, int importance) {
        int priority = importance >= NotificationManager.IMPORTANCE_HIGH ? Notification.PRIORITY_HIGH
                : importance <= NotificationManager.IMPORTANCE_LOW ? Notification.PRIORITY_LOW
                : Notification.PRIORITY_DEFAULT;
        return new Notification.Builder(context).setPriority(priority);
    }

    @TargetApi(29) // called only from API 29 on
    private static void startTyped(Service service, int notificationId, Notification notification, int type) {
        service.startForeground(notificationId, notification, type);
    }

    private static void refused(Service service, RuntimeException e) {
        // After Android stopped waiting (see the class comment): not in the foreground, but no crash.
        Log.e(McpToolService.LOG_TAG, service.getClass().getName() + ": startForeground failed; it runs"
                + " without a foreground notification, and Android may stop or freeze it once the app is in the background", e);
    }
}

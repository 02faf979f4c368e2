package io.github.mobilemcp.app;

import android.app.Notification;
import android.app.NotificationChannel;
import android.app.NotificationManager;
import android.app.Service;
import android.content.pm.ServiceInfo;
import android.os.Build;
import android.util.Log;

/**
 * Makes ToolService a foreground service while it runs requests.
 *
 * <p>Agents start the service with {@code startForegroundService} (Android 8+), after which the
 * service must call {@code startForeground} within seconds or the app gets an ANR. Android does not
 * tell a service which start method was used, so ToolService calls {@link #start} for every start
 * command; for a plain {@code startService} (only possible while this app is in the foreground) it
 * merely shows the notification a little early.
 */
final class Foreground {
    /** The id of the one notification this app posts. */
    static final int NOTIFICATION_ID = 1;
    /** The notification channel (API 26+) of that notification. */
    static final String CHANNEL_ID = "assistant_requests";

    private Foreground() {}

    /** Calls startForeground with the notification and the type valid for this API level. */
    @SuppressWarnings("deprecation") // FOREGROUND_SERVICE_TYPE_NONE: deprecated in 34, used below it
    static void start(Service service) {
        if (Build.VERSION.SDK_INT < 26) {
            return; // no startForegroundService before Android 8, so nothing to answer
        }
        Notification notification = notification(service);
        try {
            if (Build.VERSION.SDK_INT >= 34) {
                // Targeting 34 requires a type, matching the manifest's; none of the named types
                // fits "run a request from an assistant", hence specialUse (see the manifest).
                service.startForeground(NOTIFICATION_ID, notification,
                        ServiceInfo.FOREGROUND_SERVICE_TYPE_SPECIAL_USE);
            } else if (Build.VERSION.SDK_INT >= 29) {
                // specialUse does not exist before 34, and no older type fits. NONE is always a
                // subset of the manifest's types, so no check trips over the unknown bit.
                service.startForeground(NOTIFICATION_ID, notification,
                        ServiceInfo.FOREGROUND_SERVICE_TYPE_NONE);
            } else {
                service.startForeground(NOTIFICATION_ID, notification);
            }
        } catch (RuntimeException e) {
            // ForegroundServiceStartNotAllowedException (31+, an IllegalStateException) when the
            // start came from the background without an exemption, or a SecurityException for a
            // missing permission. The request still runs; Android may stop the service early.
            Log.e(ToolService.LOG_TAG, "startForeground failed", e);
        }
    }

    /** Removes the notification when the service stops. */
    static void stop(Service service) {
        service.stopForeground(Service.STOP_FOREGROUND_REMOVE);
    }

    private static Notification notification(Service service) {
        NotificationManager manager = service.getSystemService(NotificationManager.class);
        // Creating an existing channel again is a no-op, so this runs on every start.
        NotificationChannel channel = new NotificationChannel(CHANNEL_ID,
                service.getText(R.string.notification_channel_name), NotificationManager.IMPORTANCE_LOW);
        channel.setDescription(service.getString(R.string.notification_channel_description));
        manager.createNotificationChannel(channel);
        return new Notification.Builder(service, CHANNEL_ID)
                .setSmallIcon(android.R.drawable.sym_action_chat)
                .setContentTitle(service.getText(R.string.notification_running))
                .setCategory(Notification.CATEGORY_SERVICE)
                .setOngoing(true)
                .build();
    }
}

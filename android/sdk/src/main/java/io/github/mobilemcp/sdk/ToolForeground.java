package io.github.mobilemcp.sdk;

import android.app.Notification;
import android.app.NotificationManager;
import android.os.Build;

import io.github.mobilemcp.sdk.internal.Foreground;

/**
 * The tool service in the foreground while it runs requests: its notification, under an id and on
 * a channel of the SDK's own, started by {@link Foreground}'s rules for each API level.
 */
final class ToolForeground {
    /** The id of the tool service's notification. */
    static final int NOTIFICATION_ID = 0x6d637031; // "mcp1": clear of the app's own ids
    /** The notification channel (API 26+) of that notification. */
    static final String CHANNEL_ID = "mobilemcp_requests";

    private ToolForeground() {}

    /**
     * The tool service's call, first thing on every start command (API 26+; there is no
     * startForegroundService before).
     */
    static void start(McpToolService service) {
        if (Build.VERSION.SDK_INT < 26) {
            return;
        }
        Notification notification = Foreground.notificationBuilder(service, CHANNEL_ID,
                service.getText(R.string.mobilemcp_requests_channel),
                service.getText(R.string.mobilemcp_requests_channel_description), NotificationManager.IMPORTANCE_LOW)
                .setSmallIcon(android.R.drawable.sym_action_chat)
                .setContentTitle(service.getText(R.string.mobilemcp_request_running))
                .setCategory(Notification.CATEGORY_SERVICE)
                .setOngoing(true)
                .build();
        Foreground.start(service, NOTIFICATION_ID, notification);
    }
}

package io.github.mobilemcp.sdk;

import android.annotation.TargetApi;
import android.app.Notification;
import android.app.NotificationManager;
import android.app.PendingIntent;
import android.content.Context;
import android.content.Intent;
import android.content.pm.ApplicationInfo;
import android.content.pm.PackageManager;
import android.net.Uri;
import android.os.Build;
import android.util.Log;

/**
 * Asks the user whether a calling app may use the tool's capabilities that change something: a
 * notification with Allow and Deny, posted when a call got consent_required. There is one
 * notification per calling app (its tag is the package), so repeated calls replace it instead of
 * piling up. Tapping it opens {@link ToolSettingsActivity}, which asks the same question.
 *
 * <p>The buttons are immutable PendingIntents to {@link ConsentReceiver}, which is not exported: no
 * other app can send it a decision. Each button's Intent names the package in its data URI, because
 * PendingIntents are told apart by their Intent's action, data and component, never by extras; with
 * the package in an extra, the Allow button of one app would turn into another's.
 */
final class ConsentPrompt {
    /** The notification channel (API 26+). */
    static final String CHANNEL_ID = "mobilemcp_consent";
    /** The notification id; the tag is the calling package. */
    static final int NOTIFICATION_ID = 0x6d637032; // "mcp2"

    private ConsentPrompt() {}

    /** Posts (or replaces) the question for callerPackage. Safe on any thread; never throws. */
    static void ask(Context context, String callerPackage) {
        try {
            String caller = label(context, callerPackage);
            String tool = appLabel(context);
            String text = context.getString(R.string.mobilemcp_consent_text, caller, tool);
            // Channels need API 26: before, the builder without one (a NotificationChannel here
            // would be a NoClassDefFoundError on Android 7, which the catch below does not catch).
            Notification notification = Foreground.notificationBuilder(context, CHANNEL_ID,
                    context.getText(R.string.mobilemcp_consent_channel),
                    context.getText(R.string.mobilemcp_consent_channel_description), NotificationManager.IMPORTANCE_HIGH)
                    .setSmallIcon(android.R.drawable.sym_action_chat)
                    .setContentTitle(context.getString(R.string.mobilemcp_consent_title, caller, tool))
                    .setContentText(text)
                    .setStyle(new Notification.BigTextStyle().bigText(text))
                    .setOnlyAlertOnce(true)
                    .setAutoCancel(true)
                    .setContentIntent(PendingIntent.getActivity(context, 0,
                            new Intent(context, ToolSettingsActivity.class).addFlags(Intent.FLAG_ACTIVITY_NEW_TASK),
                            PendingIntent.FLAG_IMMUTABLE))
                    .addAction(button(context, R.string.mobilemcp_allow, ConsentReceiver.ACTION_ALLOW, callerPackage))
                    .addAction(button(context, R.string.mobilemcp_deny, ConsentReceiver.ACTION_DENY, callerPackage))
                    .build();
            context.getSystemService(NotificationManager.class).notify(callerPackage, NOTIFICATION_ID, notification);
        } catch (RuntimeException e) {
            // A notification must never take the reply down with it.
            Log.e(McpToolService.LOG_TAG, "could not ask the user about " + callerPackage, e);
        }
    }

    /**
     * One decision button. From API 31 it works only on an unlocked device: whoever holds the locked
     * phone must not be able to allow an app to send SMS from the lock screen.
     */
    private static Notification.Action button(Context context, int label, String action, String callerPackage) {
        Notification.Action.Builder button = new Notification.Action.Builder(null, context.getText(label),
                decision(context, action, callerPackage));
        if (Build.VERSION.SDK_INT >= 31) {
            requireUnlocked(button);
        }
        return button.build();
    }

    @TargetApi(31) // called only from API 31 on
    private static void requireUnlocked(Notification.Action.Builder button) {
        button.setAuthenticationRequired(true);
    }

    /** Removes the question for callerPackage, once it is answered. */
    static void dismiss(Context context, String callerPackage) {
        context.getSystemService(NotificationManager.class).cancel(callerPackage, NOTIFICATION_ID);
    }

    /** The Intent of one button: explicit, with the package in the data URI (see the class doc). */
    static Intent decisionIntent(Context context, String action, String callerPackage) {
        return new Intent(action)
                .setClass(context, ConsentReceiver.class)
                .setData(Uri.fromParts("package", callerPackage, null));
    }

    private static PendingIntent decision(Context context, String action, String callerPackage) {
        return PendingIntent.getBroadcast(context, 0, decisionIntent(context, action, callerPackage),
                PendingIntent.FLAG_IMMUTABLE | PendingIntent.FLAG_UPDATE_CURRENT);
    }

    /**
     * The calling app's name as the user knows it, followed by the package. The label alone could
     * be a lie (any app may call itself "Assistant"); the package cannot.
     */
    static String label(Context context, String callerPackage) {
        PackageManager pm = context.getPackageManager();
        try {
            ApplicationInfo info = pm.getApplicationInfo(callerPackage, 0);
            CharSequence label = pm.getApplicationLabel(info);
            if (label != null && label.length() > 0 && !label.toString().equals(callerPackage)) {
                return label + " (" + callerPackage + ")";
            }
        } catch (PackageManager.NameNotFoundException | RuntimeException e) {
            // Not visible to this app, or a shared uid's name: the package is all there is.
        }
        return callerPackage;
    }

    /** This app's own name, as the launcher shows it. */
    static String appLabel(Context context) {
        return context.getApplicationInfo().loadLabel(context.getPackageManager()).toString();
    }
}

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

import io.github.mobilemcp.sdk.internal.Foreground;

import org.jspecify.annotations.Nullable;

/**
 * Asks the user whether a calling app may use the tool's capabilities that change something: a
 * notification with Allow and Deny, posted when a call got consent_required. There is one
 * notification per calling app (its tag is the package), so repeated calls replace it instead of
 * piling up. Tapping it opens {@link ToolSettingsActivity}, which asks the same question.
 *
 * <p>Allow opens {@link io.github.mobilemcp.sdk.internal.ConsentConfirmActivity}, which asks again inside the tool and records the
 * decision only when the user taps Allow there: an app with notification access can fire any
 * notification's PendingIntents, and then it only opens a screen. Deny is an immutable PendingIntent
 * to {@link io.github.mobilemcp.sdk.internal.ConsentReceiver}, which is not exported, and records the refusal at once; swiping the
 * question away tells it too, and the question then waits before it comes back
 * ({@link DismissedQuestions}). Each Intent names the package in its data URI, because PendingIntents
 * are told apart by their Intent's action, data and component, never by extras; with the package in
 * an extra, the Allow button of one app would turn into another's.
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
                    .setDeleteIntent(broadcast(context, ConsentBroadcasts.ACTION_DISMISSED, callerPackage))
                    .addAction(button(context, R.string.mobilemcp_allow, confirmation(context, callerPackage)))
                    .addAction(button(context, R.string.mobilemcp_deny, broadcast(context, ConsentBroadcasts.ACTION_DENY, callerPackage)))
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
    private static Notification.Action button(Context context, int label, PendingIntent intent) {
        Notification.Action.Builder button = new Notification.Action.Builder(null, context.getText(label), intent);
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

    /** A broadcast to ConsentReceiver about callerPackage: explicit, the package in the data URI (see the class doc). */
    private static PendingIntent broadcast(Context context, String action, String callerPackage) {
        Intent intent = new Intent(action).setClass(context, io.github.mobilemcp.sdk.internal.ConsentReceiver.class).setData(packageUri(callerPackage));
        return PendingIntent.getBroadcast(context, 0, intent, PendingIntent.FLAG_IMMUTABLE | PendingIntent.FLAG_UPDATE_CURRENT);
    }

    /**
     * The confirmation screen about callerPackage, which Allow opens, and which the calling app
     * itself gets to open the question (ConsentWatch).
     */
    static PendingIntent confirmation(Context context, String callerPackage) {
        Intent intent = new Intent(context, io.github.mobilemcp.sdk.internal.ConsentConfirmActivity.class).setData(packageUri(callerPackage))
                .addFlags(Intent.FLAG_ACTIVITY_NEW_TASK);
        return PendingIntent.getActivity(context, 0, intent, PendingIntent.FLAG_IMMUTABLE | PendingIntent.FLAG_UPDATE_CURRENT);
    }

    private static Uri packageUri(String callerPackage) {
        return Uri.fromParts("package", callerPackage, null);
    }

    /** How long a calling app's own label may be in the question; a longer one is cut with "…". */
    static final int MAX_LABEL = 40;

    /**
     * The calling app as the question names it, on one line: first what Android vouches for, then
     * the app's own label in parentheses. The package comes first because the label is the caller's
     * to choose ("Google Assistant (com.google…)" with a newline is a label, not a package); the
     * label is cleaned of control, format (bidi, zero-width, tag) and line-breaking characters and
     * shortened. A caller that shares a user id (android:sharedUserId, named {@code name:uid})
     * is shown as the packages Android lists for that uid.
     */
    static String label(Context context, String callerPackage) {
        PackageManager pm = context.getPackageManager();
        int colon = callerPackage.lastIndexOf(':');
        if (colon > 0) {
            String shared = sharedPackages(pm, callerPackage.substring(colon + 1));
            if (shared != null) {
                return shared + " (" + context.getString(R.string.mobilemcp_shared_user, cleaned(callerPackage.substring(0, colon))) + ")";
            }
            return cleaned(callerPackage);
        }
        try {
            ApplicationInfo info = pm.getApplicationInfo(callerPackage, 0);
            String label = cleaned(String.valueOf(pm.getApplicationLabel(info)));
            if (!label.isEmpty() && !label.equals(callerPackage)) {
                return callerPackage + " (" + label + ")";
            }
        } catch (PackageManager.NameNotFoundException | RuntimeException e) {
            // Not visible to this app: the package is all there is.
        }
        return callerPackage;
    }

    /** The packages Android lists for uid, comma-separated, or null. */
    private static @Nullable String sharedPackages(PackageManager pm, String uid) {
        try {
            String[] packages = pm.getPackagesForUid(Integer.parseInt(uid));
            return packages == null || packages.length == 0 ? null : android.text.TextUtils.join(", ", packages);
        } catch (NumberFormatException | SecurityException e) {
            return null;
        }
    }

    /**
     * text on one line: control, format and line-breaking characters dropped, runs of white space
     * made one space, at most {@link #MAX_LABEL} characters (cut whole: no half surrogate pair).
     */
    static String cleaned(String text) {
        StringBuilder out = new StringBuilder();
        boolean space = false;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            i += Character.charCount(c);
            int type = Character.getType(c);
            if (type == Character.CONTROL || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                    || type == Character.PARAGRAPH_SEPARATOR || type == Character.UNASSIGNED || type == Character.PRIVATE_USE) {
                if (Character.isWhitespace(c)) {
                    space = out.length() > 0;
                }
                continue;
            }
            if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
                space = out.length() > 0;
                continue;
            }
            if (space) {
                out.append(' ');
                space = false;
            }
            out.appendCodePoint(c);
        }
        if (out.codePointCount(0, out.length()) > MAX_LABEL) {
            return out.substring(0, out.offsetByCodePoints(0, MAX_LABEL - 1)) + "…";
        }
        return out.toString();
    }

    /** This app's own name, as the launcher shows it. */
    static String appLabel(Context context) {
        return context.getApplicationInfo().loadLabel(context.getPackageManager()).toString();
    }
}

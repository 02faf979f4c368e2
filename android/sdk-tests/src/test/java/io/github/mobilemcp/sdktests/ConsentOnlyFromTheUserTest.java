package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.AlertDialog;
import android.app.Notification;
import android.app.NotificationManager;
import android.content.Intent;
import android.os.Looper;
import android.os.SystemClock;
import android.view.MotionEvent;
import android.view.View;
import android.view.ViewGroup;
import android.widget.Button;
import android.widget.Switch;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.ConsentConfirmActivity;
import io.github.mobilemcp.sdk.TouchGuard;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.InstalledApps;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;
import io.github.mobilemcp.sdk.testing.SettingsScreen;
import io.github.mobilemcp.sdk.testing.Touch;

import java.time.Duration;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.shadows.ShadowDialog;
import org.robolectric.shadows.ShadowPackageManager;

/**
 * Consent only from the user (docs/security.md, "An app that draws over the screen"): an overlay over
 * Allow, a tap the moment a screen appears, an app with notification access firing the Allow
 * button, a caller whose label poses as another app, and a question swiped away that comes straight
 * back. Each attacker's steps, then that no decision was recorded.
 */
@RunWith(McpTestRunner.class)
public class ConsentOnlyFromTheUserTest {
    private static final String APP = TestTool.APP;

    @Rule public final WireRule agent = new WireRule(TestToolService.class).withoutConsent();

    private NotificationManager notifications() {
        return agent.app().getSystemService(NotificationManager.class);
    }

    private Notification question(String caller) {
        return shadowOf(notifications()).getNotification(caller, TestTool.CONSENT_NOTIFICATION_ID);
    }

    /** record from caller in binding mode: consent_required, and the question is posted. */
    private void ask(String caller) throws Exception {
        agent.replies().clear();
        agent.sendMessageAs(caller, Intentbridge.ExtraRequest, WireRule.request("r-" + caller.hashCode(), "record", "{\"text\":\"hi\"}"));
        assertTrue(agent.awaitReplyJson().contains("\"error_code\":\"consent_required\""));
    }

    /** Lets the screen settle: taps in its first moments are ignored. */
    private static void settle() {
        shadowOf(Looper.getMainLooper()).idleFor(Duration.ofMillis(TouchGuard.SETTLE_MILLIS + 100));
    }

    private String decisions() {
        return EngineAccess.bridge(agent.app()).callersJSON();
    }

    private static Button button(ViewGroup in, String text) {
        for (int i = 0; i < in.getChildCount(); i++) {
            View v = in.getChildAt(i);
            if (v instanceof Button && ((Button) v).getText().toString().equals(text)) {
                return (Button) v;
            }
        }
        throw new AssertionError("no " + text + " button");
    }

    /** The confirmation screen the notification's Allow opened, created and shown. */
    private ConsentConfirmActivity confirmation() {
        Intent started = shadowOf(agent.app()).getNextStartedActivity();
        assertNotNull("Allow opens a screen", started);
        assertEquals(ConsentConfirmActivity.class.getName(), started.getComponent().getClassName());
        return Robolectric.buildActivity(ConsentConfirmActivity.class, started).setup().get();
    }

    @Test
    public void firingTheNotificationsAllow_opensAConfirmation_andDecidesNothing() throws Exception {
        ask(APP);
        // An app with notification access fires the Allow action's PendingIntent itself.
        question(APP).actions[0].actionIntent.send();
        shadowOf(Looper.getMainLooper()).idle();
        assertEquals("nothing is decided by the PendingIntent", "[]", decisions());

        ConsentConfirmActivity screen = confirmation();
        ViewGroup buttons = (ViewGroup) screen.findViewById(android.R.id.content);
        ViewGroup layout = (ViewGroup) buttons.getChildAt(0);
        settle();
        Touch.tap(button(layout, "Allow"), 0); // the user's own tap
        WireRule.idleUntil("the decision", () -> decisions().contains("\"decision\":\"allowed\""));
        assertTrue(screen.isFinishing());
    }

    @Test
    public void anObscuredTap_orOneAsTheScreenAppears_decidesNothing() throws Exception {
        ask(APP);
        question(APP).actions[0].actionIntent.send();
        shadowOf(Looper.getMainLooper()).idle();
        ViewGroup layout = (ViewGroup) ((ViewGroup) confirmation().findViewById(android.R.id.content)).getChildAt(0);
        Button allow = button(layout, "Allow");

        Touch.tap(allow, 0); // the moment the screen appears: meant for what was there before
        settle();
        Touch.tap(allow, MotionEvent.FLAG_WINDOW_IS_OBSCURED); // through another app's overlay
        Touch.tap(allow, MotionEvent.FLAG_WINDOW_IS_PARTIALLY_OBSCURED); // under part of one
        shadowOf(Looper.getMainLooper()).idle();
        assertEquals("no decision", "[]", decisions());

        settle();
        Touch.tap(allow, 0);
        WireRule.idleUntil("the decision", () -> decisions().contains("\"decision\":\"allowed\""));
    }

    /**
     * An overlay that lets touches through lies over Allow and asks the user to tap it. That tap
     * reaches Allow marked obscured and is dropped; the overlay goes away, and the user's next tap,
     * 50 ms later, lands on Allow unobscured. It is dropped too: a touch through or under another
     * window rearms the guard for its whole window, for TouchGuard.SETTLE_MILLIS, wherever in the
     * window it lands: on Allow, on Deny, or on the question's text.
     */
    @Test
    public void aCleanTapJustAfterAnObscuredOne_decidesNothing() throws Exception {
        ask(APP);
        question(APP).actions[0].actionIntent.send();
        shadowOf(Looper.getMainLooper()).idle();
        ConsentConfirmActivity screen = confirmation();
        ViewGroup layout = (ViewGroup) ((ViewGroup) screen.findViewById(android.R.id.content)).getChildAt(0);
        Button allow = button(layout, "Allow");
        Button deny = button(layout, "Deny");
        settle();

        Touch.tap(allow, MotionEvent.FLAG_WINDOW_IS_OBSCURED); // the tap on the overlay
        SystemClock.sleep(50); // the overlay is gone
        Touch.tap(allow, 0);
        SystemClock.sleep(TouchGuard.SETTLE_MILLIS - 100);
        Touch.tap(deny, MotionEvent.FLAG_WINDOW_IS_PARTIALLY_OBSCURED); // on Deny, under part of an overlay
        SystemClock.sleep(TouchGuard.SETTLE_MILLIS - 100);
        Touch.tap(allow, 0);
        SystemClock.sleep(TouchGuard.SETTLE_MILLIS - 100);
        Touch.tap(screen, MotionEvent.FLAG_WINDOW_IS_OBSCURED); // through an overlay, on the window's corner
        SystemClock.sleep(TouchGuard.SETTLE_MILLIS - 100);
        Touch.tap(allow, 0);
        shadowOf(Looper.getMainLooper()).idle();
        Thread.sleep(300); // a decision is written on a thread of its own
        assertEquals("no decision", "[]", decisions());

        settle(); // the user reads the question, then taps
        Touch.tap(allow, 0);
        WireRule.idleUntil("the decision", () -> decisions().contains("\"decision\":\"allowed\""));
    }

    @Test
    public void theSettingsButtonsAndTheDeveloperSwitch_ignoreObscuredTaps() throws Exception {
        ask(APP);
        SettingsScreen screen = SettingsScreen.open();
        settle();
        Touch.tap(screen.button(APP, "Allow"), MotionEvent.FLAG_WINDOW_IS_OBSCURED); // under an overlay
        Touch.tap(screen.button(APP, "Deny"), MotionEvent.FLAG_WINDOW_IS_OBSCURED);
        shadowOf(Looper.getMainLooper()).idle();
        assertEquals("no decision", "[]", decisions());

        Switch developer = screen.developerSwitch();
        Touch.tap(developer, MotionEvent.FLAG_WINDOW_IS_OBSCURED);
        assertFalse(developer.isChecked());
        assertNull("no question either", ShadowDialog.getLatestDialog());
    }

    @Test
    public void turningTheDeveloperSwitchOn_asksFirst() throws Exception {
        SettingsScreen screen = SettingsScreen.open();
        settle();
        Switch developer = screen.developerSwitch();
        if (!developer.isEnabled()) {
            return; // a debuggable build: the switch has no say
        }
        Touch.tap(developer, 0);
        assertFalse("off until confirmed", agent.settings().isDeveloperSwitchOn());
        AlertDialog dialog = (AlertDialog) ShadowDialog.getLatestDialog();
        assertNotNull("a confirmation", dialog);
        assertEquals("Turn on the developer switch?", shadowOf(dialog).getTitle().toString());
        settle();
        Touch.tap(dialog.getButton(AlertDialog.BUTTON_POSITIVE), 0);
        assertTrue(agent.settings().isDeveloperSwitchOn());
    }

    @Test
    public void theQuestionNamesThePackageFirst_andACleanedLabel() throws Exception {
        String evil = "com.example.evil";
        InstalledApps.uidOf(agent.app(), evil);
        ShadowPackageManager pm = shadowOf(agent.app().getPackageManager());
        pm.getInternalMutablePackageInfo(evil).applicationInfo.nonLocalizedLabel =
                "Google Assistant (com.google.android.apps.googleassistant)\n\u202eevil\u200b\udb40\udc41";
        ask(evil);
        assertEquals("Allow com.example.evil (Google Assistant (com.google.android.ap…) to use Test tool?",
                question(evil).extras.getCharSequence(Notification.EXTRA_TITLE).toString());
    }

    @Test
    public void aSharedUserIdShowsThePackagesAndroidListsForIt() throws Exception {
        int uid = 12_346;
        InstalledApps.install(agent.app(), "com.example.a", uid, "the certificate of a");
        ShadowPackageManager pm = shadowOf(agent.app().getPackageManager());
        pm.setNameForUid(uid, "com.example.shared:" + uid);
        pm.setPackagesForUid(uid, "com.example.a", "com.example.b");
        ask("com.example.a");
        Notification n = question("com.example.shared:" + uid);
        assertNotNull(n);
        assertEquals("Allow com.example.a, com.example.b (apps sharing the user id com.example.shared) to use Test tool?",
                n.extras.getCharSequence(Notification.EXTRA_TITLE).toString());
    }

    @Test
    public void aDismissedQuestionWaitsBeforeItComesBack() throws Exception {
        ask(APP);
        Notification first = question(APP);
        first.deleteIntent.send(); // the user swipes it away
        notifications().cancel(APP, TestTool.CONSENT_NOTIFICATION_ID);
        shadowOf(Looper.getMainLooper()).idle();

        for (int i = 0; i < 20; i++) {
            ask(APP);
        }
        assertNull("not straight back", question(APP));

        shadowOf(Looper.getMainLooper()).idleFor(Duration.ofSeconds(61));
        ask(APP);
        assertNotNull("back after a minute", question(APP));
    }
}

package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Notification;
import android.app.NotificationManager;
import android.content.Intent;
import android.os.Build;
import android.text.format.DateFormat;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.ConsentConfirmActivity;
import io.github.mobilemcp.sdk.internal.ConsentReceiver;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;
import io.github.mobilemcp.sdk.testing.SettingsScreen;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowNotificationManager;
import org.robolectric.shadows.ShadowPendingIntent;

/**
 * The confused-deputy guard: an app the user has not allowed cannot make a tool change anything.
 * It is asked for with a notification, decided with its buttons, listed and revoked in the SDK's
 * settings screen, kept across restarts, and rate limited once allowed. Reading needs none of it.
 * The question, its buttons and the list are in the SDK's generic words, naming the tool's app.
 */
@RunWith(McpTestRunner.class)
@Config(sdk = Config.ALL_SDKS) // every level of robolectric.sdks: the code under test branches on SDK_INT
public class ConsentTest {
    private static final String APP = TestTool.APP;
    private static final String RECORD = "{\"text\":\"hi\"}";
    /** The consent buttons' broadcast actions (ConsentReceiver's, package-private there); Allow was one once, and decides nothing now. */
    private static final String ACTION_ALLOW = "io.github.mobilemcp.sdk.CONSENT_ALLOW";
    private static final String ACTION_DENY = "io.github.mobilemcp.sdk.CONSENT_DENY";
    /** What the settings show when no app has asked. */
    private static final String NO_CALLERS = "No app has asked yet. Actions that only read need no decision.";

    @Rule public final WireRule agent = new WireRule(TestToolService.class).withoutConsent();

    private static String consentRequired(String caller) {
        return "the user has not yet allowed " + caller + " to use record;"
                + " a notification on the phone asks them, so retry once they allow it";
    }

    private ShadowNotificationManager notifications() {
        return shadowOf(agent.app().getSystemService(NotificationManager.class));
    }

    /** The question about caller, or null. */
    private Notification question(String caller) {
        return notifications().getNotification(caller, TestTool.CONSENT_NOTIFICATION_ID);
    }

    /**
     * Sends a request from this app in binding mode, where Android names the caller, and returns
     * the reply, clearing earlier ones first.
     */
    private String call(String id, String capability, String args) throws InterruptedException {
        agent.replies().clear();
        return agent.sendBound(WireRule.request(id, capability, args), WireRule.Extras.SPEC).getString(Intentbridge.ExtraResponse);
    }

    /** Sends record from this app in binding mode and returns the reply. */
    private String record(String id) throws Exception {
        return call(id, "record", RECORD);
    }

    /** Presses a button of the question about caller and waits until Go has the decision. */
    private void press(String caller, int button, String decision) throws Exception {
        question(caller).actions[button].actionIntent.send();
        if (button == 0) {
            // Allow opens the question inside the tool; its Allow decides.
            Intent started = shadowOf(agent.app()).getNextStartedActivity();
            android.app.Activity screen = org.robolectric.Robolectric.buildActivity(ConsentConfirmActivity.class, started).setup().get();
            ((android.view.ViewGroup) ((android.view.ViewGroup) screen.findViewById(android.R.id.content)).getChildAt(0))
                    .getChildAt(1).performClick();
        }
        WireRule.idleUntil("the decision about " + caller,
                () -> EngineAccess.bridge(agent.app()).callersJSON().matches(".*\"package\":\"" + Pattern.quote(caller)
                        + "\",\"signer\":\"[0-9a-f]{64}\",\"decision\":\"" + decision + "\".*"));
        WireRule.idleUntil("the question to go", () -> question(caller) == null);
    }

    @Test
    public void unknownCaller_getsConsentRequired_nothingIsSent_andTheUserIsAsked() throws Exception {
        assertEquals(WireRule.failureReply("c1", "record", consentRequired(APP), "consent_required"),
                call("c1", "record", RECORD));
        assertEquals("nothing may be recorded", List.of(), TestTool.recorded());
        assertEquals("[]", EngineAccess.bridge(agent.app()).callersJSON());

        Notification n = question(APP);
        assertNotNull("a notification asks the user", n);
        if (Build.VERSION.SDK_INT >= 26) {
            assertEquals(TestTool.CONSENT_CHANNEL, n.getChannelId());
            assertEquals(NotificationManager.IMPORTANCE_HIGH,
                    agent.app().getSystemService(NotificationManager.class).getNotificationChannel(TestTool.CONSENT_CHANNEL).getImportance());
        } else {
            // No channels before Android 8 (and no NotificationChannel class to touch): the
            // notification's own priority plays the channel's importance.
            assertEquals(Notification.PRIORITY_HIGH, n.priority);
        }
        assertEquals("Allow io.github.mobilemcp.sdktests (Test tool) to use Test tool?",
                n.extras.getCharSequence(Notification.EXTRA_TITLE).toString());
        assertEquals("io.github.mobilemcp.sdktests (Test tool) asked to run an action of Test tool that changes something on this phone."
                + " Nothing ran. If you allow it, it may run such actions without asking again, until you revoke that in Test tool.",
                n.extras.getCharSequence(Notification.EXTRA_TEXT).toString());
        assertEquals(2, n.actions.length);
        assertEquals("Allow", n.actions[0].title.toString());
        assertEquals("Deny", n.actions[1].title.toString());
        for (int i = 0; i < 2; i++) {
            if (Build.VERSION.SDK_INT >= 31) { // no such rule before Android 12
                assertTrue("a button works only on an unlocked phone", n.actions[i].isAuthenticationRequired());
            }
            ShadowPendingIntent button = shadowOf(n.actions[i].actionIntent);
            assertTrue("the buttons are immutable", button.isImmutable());
            // Allow opens the question inside the tool (firing it decides nothing); Deny decides.
            assertTrue(i == 0 ? button.isActivity() : button.isBroadcast());
            Intent intent = button.getSavedIntent();
            assertEquals(i == 0 ? ConsentConfirmActivity.class.getName() : ConsentReceiver.class.getName(), intent.getComponent().getClassName());
            if (i == 1) {
                assertEquals(ACTION_DENY, intent.getAction());
            }
            assertEquals("package:io.github.mobilemcp.sdktests", intent.getDataString());
        }
    }

    @Test
    public void allow_thenTheSameCallSends() throws Exception {
        assertEquals(WireRule.failureReply("c2", "record", consentRequired(APP), "consent_required"), record("c2"));

        long before = System.currentTimeMillis();
        press(APP, 0, "allowed");
        String decisions = EngineAccess.bridge(agent.app()).callersJSON(); // the signer: SHA-256 of the certificate WireRule gives this app
        assertTrue(decisions, decisions.startsWith("[{\"package\":\"io.github.mobilemcp.sdktests\","
                + "\"signer\":\"59e2cfea92e57f5c2f05e0140fab6c856d531e376e15bf7159186c1d292e60df\",\"decision\":\"allowed\",\"at\":\""
                + LocalDate.now(ZoneOffset.UTC) + "T"));
        // The SDK reads Go's RFC 3339 time (nanoseconds and all) without java.time, which needs API 26.
        long at = agent.settings().getCallers().get(0).getDecidedAtMillis();
        assertTrue(before + " <= " + at, before - 1 <= at && at <= System.currentTimeMillis());
        // A refusal is not kept for replay, so the agent may retry under the same id.
        assertEquals(TestTool.recordedReply("c2", 1), record("c2"));
    }

    @Test
    public void deny_refusesWithoutAskingAgain() throws Exception {
        record("c3");
        press(APP, 1, "denied");

        assertEquals(WireRule.failureReply("c4", "record", "the user does not allow io.github.mobilemcp.sdktests to use record;"
                + " they can change this in the settings of Test tool, which list the apps that asked", "permission_denied"), record("c4"));
        assertNull("no new question after a denial", question(APP));
        assertEquals(List.of(), TestTool.recorded());
    }

    @Test
    public void revokeInTheSettingsScreen_blocksAgain() throws Exception {
        agent.settings().allow(APP);
        assertEquals(TestTool.recordedReply("c5", 1), record("c5"));

        SettingsScreen screen = SettingsScreen.open();
        assertEquals(1, screen.rows());
        // The SDK writes the date in the user's format.
        String today = DateFormat.getDateFormat(agent.app()).format(new Date());
        assertEquals("io.github.mobilemcp.sdktests (Test tool)\nallowed since " + today, screen.text(APP));
        assertFalse(screen.shows(NO_CALLERS));
        assertEquals("Revoke", screen.button(APP, "Revoke").getText().toString());

        screen.forget(APP); // the user's tap on Revoke
        assertNull(screen.row(APP));
        assertEquals("[]", EngineAccess.bridge(agent.app()).callersJSON());
        assertTrue(screen.shows(NO_CALLERS));

        assertEquals(WireRule.failureReply("c6", "record", consentRequired(APP), "consent_required"), record("c6"));
        assertEquals(List.of("hi"), TestTool.recorded());
    }

    @Test
    public void withNotificationsOff_theSettingsScreenAsksToo() throws Exception {
        // Android 13+: the user may have refused POST_NOTIFICATIONS, so nobody sees the question.
        record("c10");
        agent.app().getSystemService(NotificationManager.class).cancelAll();

        SettingsScreen screen = SettingsScreen.open();
        assertEquals(1, screen.rows());
        assertEquals("io.github.mobilemcp.sdktests (Test tool)\nasks for access", screen.text(APP));
        assertEquals("Allow", screen.button(APP, "Allow").getText().toString());
        assertEquals("Deny", screen.button(APP, "Deny").getText().toString());

        screen.allow(APP); // the user's tap on Allow
        assertTrue(EngineAccess.bridge(agent.app()).callersJSON().contains("\"decision\":\"allowed\""));
        assertTrue(screen.text(APP).startsWith("io.github.mobilemcp.sdktests (Test tool)\nallowed since "));
        assertEquals(1, screen.rows());
        assertEquals(TestTool.recordedReply("c10", 1), record("c10"));
    }

    @Test
    public void denyInTheSettingsScreen_refusesWithoutAskingAgain() throws Exception {
        record("c11");
        SettingsScreen screen = SettingsScreen.open();
        screen.deny(APP); // the user's tap on Deny
        assertTrue(screen.text(APP).startsWith("io.github.mobilemcp.sdktests (Test tool)\ndenied since "));
        assertEquals("Revoke", screen.button(APP, "Revoke").getText().toString());

        assertEquals(WireRule.failureReply("c12", "record", "the user does not allow io.github.mobilemcp.sdktests to use record;"
                + " they can change this in the settings of Test tool, which list the apps that asked", "permission_denied"), record("c12"));
        assertEquals(List.of(), TestTool.recorded());
    }

    @Test
    public void aReadOnlyCapability_needsNoConsent() throws Exception {
        assertEquals(TestTool.inspectedReply("c7", "hi", APP), call("c7", "inspect", "{\"text\":\"hi\"}"));
        assertNull("nobody is asked", question(APP));
        assertEquals("[]", EngineAccess.bridge(agent.app()).callersJSON());
    }

    @Test
    public void rateLimit_tripsAtTheDefaultTenPerMinute() throws Exception {
        agent.settings().allow(APP);
        for (int i = 1; i <= 10; i++) {
            assertEquals(TestTool.recordedReply("r" + i, i), record("r" + i));
        }
        String reply = record("r11");
        String prefix = "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"r11\",\"capability\":{\"id\":\"record\"},"
                + "\"status\":\"failure\",\"message\":\"record is limited to 10/min per app; retry in ";
        java.util.regex.Matcher wait = java.util.regex.Pattern.compile(
                " seconds\",\"error_code\":\"rate_limited\",\"retry_after_ms\":([0-9]+)}}}$").matcher(reply);
        assertTrue(reply, reply.startsWith(prefix) && wait.find());
        int seconds = Integer.parseInt(reply.substring(prefix.length(), reply.indexOf(" seconds")));
        assertTrue("one call comes back every 6 s: " + seconds, seconds >= 1 && seconds <= 6);
        assertEquals("retry_after_ms is the wait the message rounds up to seconds", seconds, (Long.parseLong(wait.group(1)) + 999) / 1000);
        assertEquals("the eleventh is not recorded", 10, TestTool.recorded().size());
    }

    @Test
    public void twoCallers_eachIsAskedAndAnsweredApart() throws Exception {
        agent.sendMessageAs("com.example.assistant", Intentbridge.ExtraRequest, WireRule.request("a1", "record", RECORD));
        assertEquals(WireRule.failureReply("a1", "record", consentRequired("com.example.assistant"), "consent_required"),
                agent.awaitReplyJson());
        agent.replies().clear();
        agent.sendMessageAs("org.example.other", Intentbridge.ExtraRequest, WireRule.request("b1", "record", RECORD));
        assertEquals(WireRule.failureReply("b1", "record", consentRequired("org.example.other"), "consent_required"),
                agent.awaitReplyJson());
        assertNotSame("one question per app", question("com.example.assistant"), question("org.example.other"));
        assertNotNull(question("com.example.assistant"));
        // Not installed here, so the package is all the title can name.
        assertEquals("Allow com.example.assistant to use Test tool?",
                question("com.example.assistant").extras.getCharSequence(Notification.EXTRA_TITLE).toString());

        press("com.example.assistant", 0, "allowed");
        assertFalse("only the assistant is decided", EngineAccess.bridge(agent.app()).callersJSON().contains("org.example.other"));
        assertNotNull("the other app's question stays", question("org.example.other"));

        agent.replies().clear();
        agent.sendMessageAs("org.example.other", Intentbridge.ExtraRequest, WireRule.request("b2", "record", RECORD));
        assertEquals(WireRule.failureReply("b2", "record", consentRequired("org.example.other"), "consent_required"),
                agent.awaitReplyJson());
        agent.replies().clear();
        agent.sendMessageAs("com.example.assistant", Intentbridge.ExtraRequest, WireRule.request("a2", "record", RECORD));
        assertEquals(TestTool.recordedReply("a2", 1), agent.awaitReplyJson());
    }

    @Test
    public void consentSurvivesARestart() throws Exception {
        record("c8");
        press(APP, 0, "allowed");
        String decisions = EngineAccess.bridge(agent.app()).callersJSON();
        File file = new File(agent.app().getFilesDir(), "consents.json");
        assertTrue(new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8).contains("\"package\": \"io.github.mobilemcp.sdktests\""));

        // As when Android kills the process: the next process opens the engine afresh on the app's
        // files, and reads the decisions back. (The SDK keeps one engine per Application, and a
        // test cannot replace its Application, so the next process's engine is opened here.)
        agent.stopService();
        Bridge next = Intentbridge.openBridge(agent.app().getFilesDir().getPath());
        try {
            assertEquals(decisions, next.callersJSON());
        } finally {
            next.close();
        }
        assertEquals(TestTool.recordedReply("c9", 1), record("c9"));
    }

    @Test
    public void aQuestionWithoutAnswerIsNotADecision() {
        // ConsentReceiver ignores broadcasts that do not carry a decision about a package.
        agent.app().sendBroadcast(new Intent(ACTION_ALLOW).setClass(agent.app(), ConsentReceiver.class));
        agent.app().sendBroadcast(new Intent(ACTION_ALLOW).setClass(agent.app(), ConsentReceiver.class)
                .setData(android.net.Uri.fromParts("package", APP, null)));
        agent.app().sendBroadcast(new Intent("something.else").setClass(agent.app(), ConsentReceiver.class)
                .setData(android.net.Uri.fromParts("package", APP, null)));
        org.robolectric.shadows.ShadowLooper.idleMainLooper();
        assertEquals("[]", EngineAccess.bridge(agent.app()).callersJSON());
    }
}

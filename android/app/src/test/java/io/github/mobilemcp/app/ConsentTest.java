package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.app.Notification;
import android.app.NotificationManager;
import android.app.PendingIntent;
import android.content.Intent;
import android.os.Build;
import android.text.format.DateFormat;
import android.widget.Button;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.ConsentConfirmActivity;
import io.github.mobilemcp.sdk.ConsentReceiver;
import io.github.mobilemcp.sdk.testing.McpTestRunner;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.regex.Pattern;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowNotificationManager;
import org.robolectric.shadows.ShadowPendingIntent;

/**
 * The confused-deputy guard: an app the user has not allowed cannot make this tool send
 * SMS. It is asked for with a notification, decided with its buttons, listed and revoked in
 * MainActivity, kept across restarts, and rate limited once allowed. Reading SIMs needs none of it.
 * The question, its buttons and the list are the Tool SDK's, in its generic words.
 */
@RunWith(McpTestRunner.class)
@Config(sdk = Config.ALL_SDKS) // every level of robolectric.sdks: the code under test branches on SDK_INT
public class ConsentTest {
    private static final String APP = "io.github.mobilemcp.app";
    private static final String SEND = "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}";
    /** The consent buttons' broadcast actions (ConsentReceiver's, package-private there); Allow was one once, and decides nothing now. */
    private static final String ACTION_ALLOW = "io.github.mobilemcp.sdk.CONSENT_ALLOW";
    private static final String ACTION_DENY = "io.github.mobilemcp.sdk.CONSENT_DENY";
    /** What the settings show when no app has asked. */
    private static final String NO_CALLERS = "No app has asked yet. Actions that only read need no decision.";

    @Rule public final FakeAgent agent = FakeAgent.withoutConsent();

    private static String consentRequired(String caller) {
        return "the user has not yet allowed " + caller + " to use send_sms;"
                + " a notification on the phone asks them, so retry once they allow it";
    }

    private ShadowNotificationManager notifications() {
        return shadowOf(agent.app.getSystemService(NotificationManager.class));
    }

    /** The question about caller, or null. */
    private Notification question(String caller) {
        return notifications().getNotification(caller, FakeAgent.CONSENT_NOTIFICATION_ID);
    }

    /**
     * Sends a request from this app in binding mode, where Android names the caller, and returns
     * the reply, clearing earlier ones first.
     */
    private String call(String id, String capability, String args) throws InterruptedException {
        agent.replies.clear();
        return agent.callBound(FakeAgent.specRequest(id, capability, args));
    }

    /** Sends send_sms from this app, lets its one part succeed, and returns the reply. */
    private String send(String id) throws Exception {
        agent.replies.clear();
        agent.bind(FakeAgent.specRequest(id, "send_sms", SEND));
        agent.awaitSend(14).getSentIntents().get(0).send(agent.app, Activity.RESULT_OK, null);
        String reply = agent.awaitSpecReply();
        agent.sms(14).clearLastSentMultipartTextMessageParams();
        return reply;
    }

    private static String sent(String id) {
        return "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"" + id + "\","
                + "\"capability\":{\"id\":\"send_sms\",\"output\":["
                + "{\"name\":\"to_phone_number\",\"type\":\"string\",\"value\":\"+36201234567\"},"
                + "{\"name\":\"subscription_id\",\"type\":\"integer\",\"value\":14},"
                + "{\"name\":\"encoding\",\"type\":\"string\",\"value\":\"gsm7\"},"
                + "{\"name\":\"segments\",\"type\":\"integer\",\"value\":1}]},"
                + "\"status\":\"success\",\"message\":\"SMS sent to +36201234567\"}}}";
    }

    /** Presses a button of the question about caller and waits until Go has the decision. */
    private void press(String caller, int button, String decision) throws Exception {
        question(caller).actions[button].actionIntent.send();
        if (button == 0) {
            // Allow opens the question inside the tool; its Allow decides.
            Intent started = shadowOf(agent.app).getNextStartedActivity();
            android.app.Activity screen = org.robolectric.Robolectric.buildActivity(ConsentConfirmActivity.class, started).setup().get();
            ((android.view.ViewGroup) ((android.view.ViewGroup) screen.findViewById(android.R.id.content)).getChildAt(0))
                    .getChildAt(1).performClick();
        }
        FakeAgent.idleMainUntil("the decision about " + caller,
                () -> agent.engine().callersJSON().matches(".*\"package\":\"" + Pattern.quote(caller)
                        + "\",\"signer\":\"[0-9a-f]{64}\",\"decision\":\"" + decision + "\".*"));
        FakeAgent.idleMainUntil("the question to go", () -> question(caller) == null);
    }

    @Test
    public void unknownCaller_getsConsentRequired_nothingIsSent_andTheUserIsAsked() throws Exception {
        assertEquals(FakeAgent.failureReply("c1", "send_sms", consentRequired(APP), "consent_required"),
                call("c1", "send_sms", SEND));
        assertTrue("nothing may be sent", agent.nothingSent());
        assertEquals("[]", agent.engine().callersJSON());

        Notification n = question(APP);
        assertNotNull("a notification asks the user", n);
        if (Build.VERSION.SDK_INT >= 26) {
            assertEquals(FakeAgent.CONSENT_CHANNEL, n.getChannelId());
            assertEquals(NotificationManager.IMPORTANCE_HIGH,
                    agent.app.getSystemService(NotificationManager.class).getNotificationChannel(FakeAgent.CONSENT_CHANNEL).getImportance());
        } else {
            // No channels before Android 8 (and no NotificationChannel class to touch): the
            // notification's own priority plays the channel's importance.
            assertEquals(Notification.PRIORITY_HIGH, n.priority);
        }
        assertEquals("Allow io.github.mobilemcp.app (mobilemcp) to use mobilemcp?",
                n.extras.getCharSequence(Notification.EXTRA_TITLE).toString());
        assertEquals("io.github.mobilemcp.app (mobilemcp) asked to run an action of mobilemcp that changes something on this phone."
                + " Nothing ran. If you allow it, it may run such actions without asking again, until you revoke that in mobilemcp.",
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
            assertEquals("package:io.github.mobilemcp.app", intent.getDataString());
        }
    }

    @Test
    public void allow_thenTheSameCallSends() throws Exception {
        assertEquals(FakeAgent.failureReply("c2", "send_sms", consentRequired(APP), "consent_required"),
                call("c2", "send_sms", SEND));

        long before = System.currentTimeMillis();
        press(APP, 0, "allowed");
        String decisions = agent.engine().callersJSON(); // the signer: SHA-256 of FakeAgent's certificate for this app
        assertTrue(decisions, decisions.startsWith("[{\"package\":\"io.github.mobilemcp.app\","
                + "\"signer\":\"65dcf23995f47ef27e8565b5ff272d7cb5b9acb78a36168e766ffb30445e9304\",\"decision\":\"allowed\",\"at\":\""
                + LocalDate.now(ZoneOffset.UTC) + "T"));
        // The SDK reads Go's RFC 3339 time (nanoseconds and all) without java.time, which needs API 26.
        long at = agent.tool().getCallers().get(0).getDecidedAtMillis();
        assertTrue(before + " <= " + at, before - 1 <= at && at <= System.currentTimeMillis());
        // A refusal is not kept for replay, so the agent may retry under the same id.
        assertEquals(sent("c2"), send("c2"));
    }

    @Test
    public void deny_refusesWithoutAskingAgain() throws Exception {
        call("c3", "send_sms", SEND);
        press(APP, 1, "denied");

        assertEquals(FakeAgent.failureReply("c4", "send_sms", "the user does not allow io.github.mobilemcp.app to use send_sms;"
                + " they can change this in the settings of mobilemcp SMS, which list the apps that asked", "permission_denied"), call("c4", "send_sms", SEND));
        assertNull("no new question after a denial", question(APP));
        assertTrue(agent.nothingSent());
    }

    @Test
    public void revokeInMainActivity_blocksAgain() throws Exception {
        agent.tool().allow(APP);
        assertEquals(sent("c5"), send("c5"));

        SettingsScreen screen = SettingsScreen.open();
        assertEquals(1, screen.rows());
        // The SDK writes the date in the user's format.
        String today = DateFormat.getDateFormat(agent.app).format(new Date());
        assertEquals("io.github.mobilemcp.app (mobilemcp)\nallowed since " + today, screen.text(APP));
        assertFalse(screen.shows(NO_CALLERS));
        Button revoke = screen.button(APP, 0);
        assertEquals("Revoke", revoke.getText().toString());

        revoke.performClick();
        FakeAgent.idleMainUntil("the row to go", () -> screen.row(APP) == null);
        assertEquals("[]", agent.engine().callersJSON());
        assertTrue(screen.shows(NO_CALLERS));

        assertEquals(FakeAgent.failureReply("c6", "send_sms", consentRequired(APP), "consent_required"),
                call("c6", "send_sms", SEND));
        assertTrue(agent.nothingSent());
    }

    @Test
    public void withNotificationsOff_mainActivityAsksToo() throws Exception {
        // Android 13+: the user may have refused POST_NOTIFICATIONS, so nobody sees the question.
        call("c10", "send_sms", SEND);
        agent.app.getSystemService(NotificationManager.class).cancelAll();

        SettingsScreen screen = SettingsScreen.open();
        assertEquals(1, screen.rows());
        assertEquals("io.github.mobilemcp.app (mobilemcp)\nasks for access", screen.text(APP));
        assertEquals("Allow", screen.button(APP, 0).getText().toString());
        assertEquals("Deny", screen.button(APP, 1).getText().toString());

        screen.button(APP, 0).performClick();
        FakeAgent.idleMainUntil("the decision", () -> agent.engine().callersJSON().contains("\"decision\":\"allowed\""));
        FakeAgent.idleMainUntil("the row to show it",
                () -> screen.text(APP).startsWith("io.github.mobilemcp.app (mobilemcp)\nallowed since "));
        assertEquals(1, screen.rows());
        assertEquals(sent("c10"), send("c10"));
    }

    @Test
    public void getSmsSubscriptions_needsNoConsent() throws Exception {
        String reply = call("c7", "get_sms_subscriptions", "{}");
        assertTrue(reply, reply.contains("\"status\":\"success\"") && reply.contains("{\"name\":\"count\",\"type\":\"integer\",\"value\":2}"));
        assertNull("nobody is asked", question(APP));
        assertEquals("[]", agent.engine().callersJSON());
    }

    @Test
    public void rateLimit_tripsAtTheDefaultTenPerMinute() throws Exception {
        agent.tool().allow(APP);
        for (int i = 1; i <= 10; i++) {
            assertEquals(sent("r" + i), send("r" + i));
        }
        String reply = call("r11", "send_sms", SEND);
        String prefix = "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"r11\",\"capability\":{\"id\":\"send_sms\"},"
                + "\"status\":\"failure\",\"message\":\"send_sms is limited to 10/min per app; retry in ";
        assertTrue(reply, reply.startsWith(prefix) && reply.endsWith(" seconds\",\"error_code\":\"rate_limited\"}}}"));
        int seconds = Integer.parseInt(reply.substring(prefix.length(), reply.indexOf(" seconds")));
        assertTrue("one call comes back every 6 s: " + seconds, seconds >= 1 && seconds <= 6);
        assertTrue("the eleventh is not sent", agent.nothingSent());
    }

    @Test
    public void twoCallers_eachIsAskedAndAnsweredApart() throws Exception {
        agent.bindAs("com.example.assistant", Intentbridge.ExtraRequest, FakeAgent.specRequest("a1", "send_sms", SEND));
        assertEquals(FakeAgent.failureReply("a1", "send_sms", consentRequired("com.example.assistant"), "consent_required"),
                agent.awaitSpecReply());
        agent.replies.clear();
        agent.bindAs("org.example.other", Intentbridge.ExtraRequest, FakeAgent.specRequest("b1", "send_sms", SEND));
        assertEquals(FakeAgent.failureReply("b1", "send_sms", consentRequired("org.example.other"), "consent_required"),
                agent.awaitSpecReply());
        assertNotSame("one question per app", question("com.example.assistant"), question("org.example.other"));
        assertNotNull(question("com.example.assistant"));
        // Not installed here, so the package is all the title can name.
        assertEquals("Allow com.example.assistant to use mobilemcp?",
                question("com.example.assistant").extras.getCharSequence(Notification.EXTRA_TITLE).toString());

        press("com.example.assistant", 0, "allowed");
        assertFalse("only the assistant is decided", agent.engine().callersJSON().contains("org.example.other"));
        assertNotNull("the other app's question stays", question("org.example.other"));

        agent.replies.clear();
        agent.bindAs("org.example.other", Intentbridge.ExtraRequest, FakeAgent.specRequest("b2", "send_sms", SEND));
        assertEquals(FakeAgent.failureReply("b2", "send_sms", consentRequired("org.example.other"), "consent_required"),
                agent.awaitSpecReply());
        agent.replies.clear();
        agent.bindAs("com.example.assistant", Intentbridge.ExtraRequest, FakeAgent.specRequest("a2", "send_sms", SEND));
        agent.awaitSend(14).getSentIntents().get(0).send(agent.app, Activity.RESULT_OK, null);
        assertEquals(sent("a2"), agent.awaitSpecReply());
    }

    @Test
    public void consentSurvivesARestart() throws Exception {
        call("c8", "send_sms", SEND);
        press(APP, 0, "allowed");
        String decisions = agent.engine().callersJSON();
        File file = new File(agent.app.getFilesDir(), "consents.json");
        assertTrue(new String(Files.readAllBytes(file.toPath()), StandardCharsets.UTF_8).contains("\"package\": \"io.github.mobilemcp.app\""));

        // As when Android kills the process: the next process opens the engine afresh on the app's
        // files, and reads the decisions back. (The SDK keeps one engine per Application, and a
        // test cannot replace its Application, so the next process's engine is opened here.)
        agent.stop();
        Bridge next = Intentbridge.openBridge(agent.app.getFilesDir().getPath());
        try {
            assertEquals(decisions, next.callersJSON());
        } finally {
            next.close();
        }
        assertEquals(sent("c9"), send("c9"));
    }

    @Test
    public void aQuestionWithoutAnswerIsNotADecision() {
        // ConsentReceiver ignores broadcasts that do not carry a decision about a package.
        agent.app.sendBroadcast(new Intent(ACTION_ALLOW).setClass(agent.app, ConsentReceiver.class));
        agent.app.sendBroadcast(new Intent(ACTION_ALLOW).setClass(agent.app, ConsentReceiver.class)
                .setData(android.net.Uri.fromParts("package", APP, null)));
        agent.app.sendBroadcast(new Intent("something.else").setClass(agent.app, ConsentReceiver.class)
                .setData(android.net.Uri.fromParts("package", APP, null)));
        org.robolectric.shadows.ShadowLooper.idleMainLooper();
        assertEquals("[]", agent.engine().callersJSON());
    }
}

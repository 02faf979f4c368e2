package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.app.Notification;
import android.app.NotificationManager;
import android.app.PendingIntent;
import android.content.Intent;
import android.os.Looper;
import android.os.SystemClock;
import android.view.View;
import android.view.ViewGroup;
import android.widget.Button;

import io.github.mobilemcp.Consent;
import io.github.mobilemcp.ErrorCode;
import io.github.mobilemcp.client.MobileMcpClient;
import io.github.mobilemcp.client.MobileMcpException;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.client.Request;
import io.github.mobilemcp.client.Tool;
import io.github.mobilemcp.sdk.internal.ConsentConfirmActivity;
import io.github.mobilemcp.sdk.TouchGuard;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.Touch;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.json.JSONObject;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLog;
import org.robolectric.shadows.ShadowSmsManager;

/**
 * Consent an assistant can see: a call the user has not allowed yet is a typed pending decision;
 * the assistant learns the user's answer over its binding without running anything again, can open
 * the tool's question itself, and then sends the same request once, which sends one SMS. Deny, a
 * question put away, no answer in time, and a decision made while the assistant is gone, too.
 */
@RunWith(McpTestRunner.class)
@Config(shadows = RecordingSmsManager.class)
public class VisibleConsentTest {
    private static final String APP = "io.github.mobilemcp.app";

    /** The consent question's notification id ("mcp2", tagged with the calling package), the SDK's own. */

    private static final int CONSENT_NOTIFICATION_ID = 0x6d637032;

    @Rule public final WireRule agent = new WireRule(ToolService.class).withoutConsent();

    private final Phone phone = new Phone();

    private ToolHost host;
    private MobileMcpClient client;
    private Tool tool;
    private Request send;

    @Before
    public void setUp() throws Exception {
        RecordingSmsManager.SENDS.clear();
        host = new ToolHost(agent.app());
        client = new MobileMcpClient(agent.app());
        tool = client.discover().tools().get(0);
        send = client.request(tool, "send_sms",
                new JSONObject().put("to_phone_number", "+36201234567").put("sms_text", "On my way").put("subscription_id", 14));
    }

    @After
    public void tearDown() {
        client.close();
        host.close();
    }

    /** The first call: refused until the user decides, and nothing sent. */
    private void refusedForNow() throws Exception {
        Reply refused = host.await(send.withTimeoutMillis(10_000).send());
        assertTrue(refused.isConsentPending());
        assertEquals(ErrorCode.CONSENT_REQUIRED, refused.errorCode());
        assertTrue(refused.errorCode().nothingRan());
        assertEquals(0, RecordingSmsManager.SENDS.size());
    }

    /** Waits until the tool has the assistant's wait for the decision. */
    private CompletableFuture<Consent> awaitConsent(MobileMcpClient c, long timeoutMillis) throws Exception {
        int before = ShadowLog.getLogsForTag(ToolService.LOG_TAG).size();
        CompletableFuture<Consent> decision = c.awaitConsent(tool, timeoutMillis);
        host.idleUntil("the tool to hold the wait", () -> ShadowLog.getLogsForTag(ToolService.LOG_TAG).stream().skip(before)
                .anyMatch(l -> l.msg.equals(APP + " waits for the user's decision about it")));
        assertFalse("an answer before the user gave one", decision.isDone());
        return decision;
    }

    /** The tool's question, opened by the assistant with the PendingIntent the tool gave it. */
    private ConsentConfirmActivity openTheQuestion() throws Exception {
        PendingIntent question = host.await(client.consentQuestion(tool));
        assertEquals(APP, question.getCreatorPackage());
        question.send();
        shadowOf(Looper.getMainLooper()).idle();
        Intent started = shadowOf(agent.app()).getNextStartedActivity();
        assertEquals(ConsentConfirmActivity.class.getName(), started.getComponent().getClassName());
        assertEquals("package:" + APP, started.getDataString());
        return Robolectric.buildActivity(ConsentConfirmActivity.class, started).setup().get();
    }

    /** The user clicks label on the question. */
    private void click(Activity question, String label) {
        button(question, label).performClick();
    }

    /** The button labelled label on the question. */
    private static Button button(Activity question, String label) {
        ViewGroup layout = (ViewGroup) ((ViewGroup) question.findViewById(android.R.id.content)).getChildAt(0);
        for (int i = 0; i < layout.getChildCount(); i++) {
            View v = layout.getChildAt(i);
            if (v instanceof Button && label.contentEquals(((Button) v).getText())) {
                return (Button) v;
            }
        }
        throw new AssertionError("no " + label + " on the question");
    }

    /** Sends the request again and confirms every SMS the radio gets, until the reply. */
    private Reply sendAgain(Request request) throws Exception {
        CompletableFuture<Reply> reply = request.withTimeoutMillis(10_000).send();
        Set<ShadowSmsManager.TextMultipartParams> confirmed = new HashSet<>();
        host.idleUntil("the reply", () -> {
            for (ShadowSmsManager.TextMultipartParams sent : RecordingSmsManager.SENDS) {
                if (confirmed.add(sent)) {
                    try {
                        sent.getSentIntents().get(0).send(agent.app(), Activity.RESULT_OK, null);
                    } catch (PendingIntent.CanceledException e) {
                        throw new AssertionError(e);
                    }
                }
            }
            return reply.isDone();
        });
        return reply.get();
    }

    @Test
    public void theAssistantOpensTheQuestion_hearsAllow_andTheSameRequestSendsOneSms() throws Exception {
        refusedForNow();
        CompletableFuture<Consent> decision = awaitConsent(client, 10_000);
        click(openTheQuestion(), "Allow");
        assertEquals(Consent.ALLOWED, host.await(decision));

        Reply sent = sendAgain(send);
        assertEquals("success: SMS sent to +36201234567", (sent.isSuccess() ? "success" : "failure") + ": " + sent.message());
        assertEquals(send.id(), sent.id());
        assertEquals("exactly one SMS went to the radio", 1, RecordingSmsManager.SENDS.size());
    }

    /**
     * The assistant opens the question itself, at a moment it chooses: in the middle of a burst of
     * taps in its own screen (a game, a keyboard), with Allow under the user's finger. The taps go
     * on after the question appears, each soon after the last: none of them decides. Only a tap
     * after the user has stopped, and had the question before their eyes, does.
     */
    @Test
    public void aBurstOfTapsAsTheAssistantOpensTheQuestion_decidesNothing() throws Exception {
        refusedForNow();
        CompletableFuture<Consent> decision = awaitConsent(client, 60_000);
        Button allow = button(openTheQuestion(), "Allow");
        for (int i = 0; i < 30; i++) { // 3 s of taps, one every 100 ms
            Touch.tap(allow, 0);
            SystemClock.sleep(100);
        }
        Thread.sleep(300); // a decision is written on a thread of its own
        shadowOf(Looper.getMainLooper()).idle();
        assertFalse("a tap of the burst decided: " + agent.settings().getCallers(), decision.isDone());

        SystemClock.sleep(TouchGuard.SETTLE_MILLIS + 100); // the user stops, and reads the question
        Touch.tap(allow, 0);
        assertEquals(Consent.ALLOWED, host.await(decision));
    }

    @Test
    public void theUserDenies_andTheRetryRunsNothing() throws Exception {
        refusedForNow();
        CompletableFuture<Consent> decision = awaitConsent(client, 10_000);
        click(openTheQuestion(), "Deny");
        assertEquals(Consent.DENIED, host.await(decision));

        Reply refused = host.await(send.withTimeoutMillis(10_000).send());
        assertEquals(ErrorCode.PERMISSION_DENIED, refused.errorCode());
        assertEquals(0, RecordingSmsManager.SENDS.size());
    }

    @Test
    public void aQuestionPutAway_isDismissed_atOnce() throws Exception {
        refusedForNow();
        CompletableFuture<Consent> decision = awaitConsent(client, 60_000);
        Notification question = shadowOf(agent.app().getSystemService(NotificationManager.class))
                .getNotification(APP, CONSENT_NOTIFICATION_ID);
        question.deleteIntent.send(); // the user swipes the notification away
        assertEquals(Consent.DISMISSED, host.await(decision));
        assertEquals("nothing decided", "[io.github.mobilemcp.app: WAITING]", agent.settings().getCallers().toString());
        assertEquals(0, RecordingSmsManager.SENDS.size());
    }

    @Test
    public void noAnswerInTime_isStillWaiting() throws Exception {
        refusedForNow();
        long started = System.nanoTime();
        assertEquals(Consent.WAITING, host.await(client.awaitConsent(tool, 300)));
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue("answered after " + millis + " ms", millis >= 300 && millis < 5_000);
    }

    @Test
    public void theUserDecidesWhileTheAssistantIsGone_andItsRequestIdStillSendsOnce() throws Exception {
        refusedForNow();
        CompletableFuture<Consent> decision = awaitConsent(client, 60_000);
        String kept = send.id(); // what the assistant keeps before it stops
        client.close();
        try {
            decision.get();
            throw new AssertionError("an answer reached a closed client");
        } catch (ExecutionException e) {
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof MobileMcpException);
        }
        click(openQuestionFromTheNotification(), "Allow"); // the user answers the notification meanwhile
        host.idleUntil("the decision", () -> "[io.github.mobilemcp.app: ALLOWED]".equals(agent.settings().getCallers().toString()));

        client = new MobileMcpClient(agent.app()); // the assistant again
        tool = client.discover().tools().get(0);
        assertEquals(Consent.ALLOWED, host.await(client.awaitConsent(tool, 10_000)));
        Request again = client.request(tool, "send_sms", send.arguments()).withId(kept);
        Reply sent = sendAgain(again);
        assertEquals("success: SMS sent to +36201234567", (sent.isSuccess() ? "success" : "failure") + ": " + sent.message());
        assertEquals(kept, sent.id());
        assertEquals("exactly one SMS went to the radio", 1, RecordingSmsManager.SENDS.size());
    }

    /** The notification's Allow, which opens the same question inside the tool. */
    private ConsentConfirmActivity openQuestionFromTheNotification() throws Exception {
        Notification question = shadowOf(agent.app().getSystemService(NotificationManager.class))
                .getNotification(APP, CONSENT_NOTIFICATION_ID);
        question.actions[0].actionIntent.send();
        shadowOf(Looper.getMainLooper()).idle();
        return Robolectric.buildActivity(ConsentConfirmActivity.class, shadowOf(agent.app()).getNextStartedActivity()).setup().get();
    }
}

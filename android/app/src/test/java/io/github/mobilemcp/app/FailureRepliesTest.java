package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import android.telephony.SmsManager;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.ToolSettings;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.shadows.ShadowSmsManager;

/**
 * Every failure comes back through the agent's callback, exactly once, with its error_code. The
 * ones the engine catches before the platform send nothing at all.
 */
@RunWith(McpTestRunner.class)
public class FailureRepliesTest {
    @Rule public final WireRule agent = new WireRule(ToolService.class);
    private final Phone phone = new Phone();

    private void assertRefusedWithoutSending(String request, String reply) throws Exception {
        assertEquals(reply, agent.send(request, WireRule.Extras.SPEC).getStringExtra(Intentbridge.ExtraResponse));
        assertTrue("nothing may be sent", phone.nothingSent());
    }

    /** The same for a send, which runs only in binding mode: there its reply is a Message. */
    private void assertSendRefusedWithoutSending(String request, String reply) throws Exception {
        assertEquals(reply, agent.sendBound(request, WireRule.Extras.SPEC).getString(Intentbridge.ExtraResponse));
        assertTrue("nothing may be sent", phone.nothingSent());
    }

    @Test
    public void malformedJson() throws Exception {
        assertRefusedWithoutSending("{not json", WireRule.failureReply(null, null,
                "request is not valid JSON: invalid character 'n' looking for beginning of object key string (at byte 2)",
                "invalid_request"));
    }

    @Test
    public void wrongVersion() throws Exception {
        assertRefusedWithoutSending(
                "{\"mobile-mcp-request\":{\"version\":\"2.0\",\"request\":{\"id\":\"v2\",\"capability\":{\"id\":\"send_sms\","
                        + "\"args\":{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}}}}}",
                WireRule.failureReply("v2", null, "version \"2.0\" is not supported; send \"1.0\"", "unsupported_version"));
    }

    @Test
    public void unknownCapability() throws Exception {
        assertRefusedWithoutSending(WireRule.request("u1", "make_coffee", "{}"),
                WireRule.failureReply("u1", "make_coffee",
                        "no capability \"make_coffee\"; this tool offers: send_sms, get_sms_subscriptions", "unknown_capability"));
    }

    @Test
    public void missingArgument() throws Exception {
        assertRefusedWithoutSending(
                WireRule.request("m1", "send_sms", "{\"to_phone_number\":\"+36201234567\",\"subscription_id\":14}"),
                WireRule.failureReply("m1", "send_sms", "send_sms: sms_text is required (string: The text of the sms"
                        + " messages to be sent. The maximum length is 160 characters)", "invalid_arguments"));
    }

    @Test
    public void twoSimsAndNoSubscriptionId() throws Exception {
        assertSendRefusedWithoutSending(
                WireRule.request("s1", "send_sms", "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\"}"),
                WireRule.failureReply("s1", "send_sms", "subscription_id is required because 2 SIMs are active:"
                        + " 14 (slot 0, Vodafone UK), 17 (slot 1, Yettel HU); call get_sms_subscriptions and pass the"
                        + " subscription_id of the SIM to send from", "invalid_arguments"));
    }

    @Test
    public void noService_isAPlatformErrorWithReadableText() throws Exception {
        agent.sendMessage(WireRule.request("ns1", "send_sms",
                "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}"));
        ShadowSmsManager.TextMultipartParams sent = phone.awaitSend(14);

        // Java passes the raw code; Go's sms.PartResult names it.
        sent.getSentIntents().get(0).send(agent.app(), SmsManager.RESULT_ERROR_NO_SERVICE, null);
        assertEquals(WireRule.failureReply("ns1", "send_sms", "SMS to +36201234567 failed: no service", "platform_error"),
                agent.awaitReplyJson());
    }

    @Test
    public void sentResultNeverArrives_isATimeout() throws Exception {
        long started = System.nanoTime();
        // A 1.5 s deadline for every capability, instead of 60 s for send_sms.
        EngineAccess.setTimeoutMillis(agent.app(), 1500);
        agent.sendMessage(WireRule.request("t1", "send_sms",
                "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":17}"));
        phone.awaitSend(17); // and never fire its sent PendingIntent

        assertEquals(WireRule.failureReply("t1", "send_sms", "no sent confirmation for part 1 of 1 of the SMS to"
                + " +36201234567; it may still be delivered, so check before sending again", "timeout"),
                agent.awaitReplyJson());
        long millis = (System.nanoTime() - started) / 1_000_000;
        // Java waited 3/4 of the 1.5 s deadline (Go keeps the rest as a margin) and answered with
        // no result; the engine's own deadline would have given another message. The upper bound
        // only shows that the 60 s default was not used; a slow machine may need the slack.
        assertTrue("timeout reply after " + millis + " ms", millis >= 1000 && millis < 10_000);
    }
}

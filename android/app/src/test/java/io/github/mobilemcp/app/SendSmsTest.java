package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.app.PendingIntent;
import android.content.ComponentName;
import android.os.Looper;

import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.List;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowApplication;
import org.robolectric.shadows.ShadowPendingIntent;
import org.robolectric.shadows.ShadowSmsManager;

/**
 * send_sms in the specification's shape, end to end: a binding Message (the mode a capability that
 * changes something needs), the worker, gobind's Java, the real Go engine in libmobilemcp.so,
 * AndroidPlatform, Robolectric's SmsManager, and the reply Message. (The Intent path and the
 * service's lifecycle, which the SDK owns, are tested in the sdk-tests module.)
 */
@RunWith(McpTestRunner.class)
@Config(sdk = Config.ALL_SDKS) // every level of robolectric.sdks: the code under test branches on SDK_INT
public class SendSmsTest {
    @Rule public final WireRule agent = new WireRule(ToolService.class);
    private final Phone phone = new Phone();

    @Test
    public void repliesSuccessOnlyAfterThePartIsSent() throws Exception {
        agent.sendMessage(WireRule.request("req-send", "send_sms",
                "{\"to_phone_number\":\"+36 20 123 4567\",\"sms_text\":\"Hello world\",\"subscription_id\":\"17\"}"));

        ShadowSmsManager.TextMultipartParams sent = phone.awaitSend(17);
        assertEquals("+36201234567", sent.getDestinationAddress()); // normalised by Go
        assertEquals(List.of("Hello world"), sent.getParts());
        assertNull("SIM 14 must not send", phone.sms(14).getLastSentMultipartTextMessageParams());
        ShadowPendingIntent part = shadowOf(sent.getSentIntents().get(0));
        assertTrue("sent PendingIntents are immutable broadcasts", part.isBroadcast() && part.isImmutable());
        assertEquals(AndroidPlatform.ACTION_SENT, part.getSavedIntent().getAction());
        // To the manifest's receiver, not exported, rather than one registered at run time, whose
        // broadcasts Android 14 holds back while the app is cached (the send would time out).
        ComponentName receiver = new ComponentName(agent.app(), SmsSentReceiver.class);
        assertEquals(receiver, part.getSavedIntent().getComponent());
        assertFalse(agent.app().getPackageManager().getReceiverInfo(receiver, 0).exported);
        for (ShadowApplication.Wrapper registered : shadowOf(agent.app()).getRegisteredReceivers()) {
            if (registered.getIntentFilter().hasAction(AndroidPlatform.ACTION_SENT)) {
                assertEquals("only the manifest's receiver waits for sent results",
                        SmsSentReceiver.class, registered.getBroadcastReceiver().getClass());
            }
        }

        // ShadowSmsManager never fires sent intents; the engine waits for them.
        Thread.sleep(100);
        shadowOf(Looper.getMainLooper()).idle();
        assertEquals("no reply before the sent result", List.of(), agent.replies());

        sent.getSentIntents().get(0).send(agent.app(), Activity.RESULT_OK, null);
        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"req-send\","
                + "\"capability\":{\"id\":\"send_sms\",\"output\":["
                + "{\"name\":\"to_phone_number\",\"type\":\"string\",\"value\":\"+36201234567\"},"
                + "{\"name\":\"subscription_id\",\"type\":\"integer\",\"value\":17},"
                + "{\"name\":\"encoding\",\"type\":\"string\",\"value\":\"gsm7\"},"
                + "{\"name\":\"segments\",\"type\":\"integer\",\"value\":1}]},"
                + "\"status\":\"success\",\"message\":\"SMS sent to +36201234567\"}}}",
                agent.awaitReplyJson());
    }

    @Test
    public void multipart_repliesOnlyAfterEveryPartIsSent() throws Exception {
        // ő is not GSM-7, so this is UCS-2: 100 characters need two parts of at most 67.
        String text = "ő".repeat(100);
        phone.setSims(Phone.SIM_14); // one SIM: subscription_id may be left out
        agent.sendMessage(WireRule.request("req-multi", "send_sms",
                "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"" + text + "\"}"));

        ShadowSmsManager.TextMultipartParams sent = phone.awaitSend(14);
        assertEquals(2, sent.getParts().size());
        assertEquals(text, String.join("", sent.getParts()));
        List<PendingIntent> sentIntents = sent.getSentIntents();
        assertEquals(2, sentIntents.size());
        assertNotEquals("each part has its own request code",
                shadowOf(sentIntents.get(0)).getRequestCode(), shadowOf(sentIntents.get(1)).getRequestCode());

        sentIntents.get(1).send(agent.app(), Activity.RESULT_OK, null); // parts may report in any order
        Thread.sleep(100);
        shadowOf(Looper.getMainLooper()).idle();
        assertEquals("no reply while part 1 is outstanding", List.of(), agent.replies());

        sentIntents.get(0).send(agent.app(), Activity.RESULT_OK, null);
        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"req-multi\","
                + "\"capability\":{\"id\":\"send_sms\",\"output\":["
                + "{\"name\":\"to_phone_number\",\"type\":\"string\",\"value\":\"+36201234567\"},"
                + "{\"name\":\"subscription_id\",\"type\":\"integer\",\"value\":14},"
                + "{\"name\":\"encoding\",\"type\":\"string\",\"value\":\"ucs2\"},"
                + "{\"name\":\"segments\",\"type\":\"integer\",\"value\":2}]},"
                + "\"status\":\"success\",\"message\":\"SMS sent to +36201234567\"}}}",
                agent.awaitReplyJson());
    }

    @Test
    public void getSmsSubscriptions_listsBothSims() throws Exception {
        agent.startService(agent.intentFor(WireRule.request("req-subs", "get_sms_subscriptions", "{}")));

        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"req-subs\","
                + "\"capability\":{\"id\":\"get_sms_subscriptions\",\"output\":["
                + "{\"name\":\"count\",\"type\":\"integer\",\"value\":2},"
                + "{\"name\":\"subscriptions\",\"type\":\"array\",\"value\":["
                + "{\"subscription_id\":14,\"sim_slot_index\":0,\"carrier_name\":\"Vodafone UK\",\"display_name\":\"Vodafone UK\"},"
                + "{\"subscription_id\":17,\"sim_slot_index\":1,\"carrier_name\":\"Yettel HU\",\"display_name\":\"Ünnep 🎉\"}]}]},"
                + "\"status\":\"success\",\"message\":\"{\\\"count\\\":2,\\\"subscriptions\\\":["
                + "{\\\"subscription_id\\\":14,\\\"sim_slot_index\\\":0,\\\"carrier_name\\\":\\\"Vodafone UK\\\",\\\"display_name\\\":\\\"Vodafone UK\\\"},"
                + "{\\\"subscription_id\\\":17,\\\"sim_slot_index\\\":1,\\\"carrier_name\\\":\\\"Yettel HU\\\",\\\"display_name\\\":\\\"Ünnep 🎉\\\"}]}\"}}}",
                agent.awaitReplyJson());
    }
}

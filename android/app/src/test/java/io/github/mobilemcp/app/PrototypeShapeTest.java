package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;

import android.app.Activity;
import android.app.PendingIntent;
import android.content.Intent;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * The prototype agent (system-pclub/mobile-mcp llm-app) sends a bare request in the extra
 * {@code request} and its callback in {@code mcp_callback}, and reads a flat reply from
 * {@code response} and the id from {@code mcp_request_id}. It gets those, and the specification's
 * {@code mobile-mcp-response} as well.
 */
@RunWith(McpTestRunner.class)
public class PrototypeShapeTest {
    @Rule public final WireRule agent = new WireRule(ToolService.class);
    private final Phone phone = new Phone();

    private Intent prototypeIntent(String request) {
        return new Intent(Intentbridge.ServiceAction)
                .setClassName(agent.app(), ToolService.class.getName())
                .putExtra("request", request)
                .putExtra("mcp_callback", agent.callback(PendingIntent.FLAG_MUTABLE));
    }

    /** A send runs only in binding mode; the prototype's request extra works there too. */
    @Test
    public void sendSms_getsTheFlatReplyAndItsId() throws Exception {
        agent.sendMessageAs(agent.app().getPackageName(), "request", "{\"id\":\"p1\",\"capability\":{\"id\":\"send_sms\","
                + "\"input\":\"{\\\"to_phone_number\\\":\\\"+36 20 123 4567\\\",\\\"sms_text\\\":\\\"Hello world\\\",\\\"subscription_id\\\":\\\"17\\\"}\"}}");
        phone.awaitSend(17).getSentIntents().get(0).send(agent.app(), Activity.RESULT_OK, null);

        Intent reply = agent.awaitReply();
        String flat = "{\"id\":\"p1\",\"capability\":{\"id\":\"send_sms\",\"output\":["
                + "{\"name\":\"to_phone_number\",\"type\":\"string\",\"value\":\"+36201234567\"},"
                + "{\"name\":\"subscription_id\",\"type\":\"integer\",\"value\":17},"
                + "{\"name\":\"encoding\",\"type\":\"string\",\"value\":\"gsm7\"},"
                + "{\"name\":\"segments\",\"type\":\"integer\",\"value\":1}]},"
                + "\"status\":\"success\",\"message\":\"SMS sent to +36201234567\"}";
        assertEquals(flat, reply.getStringExtra("response"));
        assertEquals("p1", reply.getStringExtra("mcp_request_id"));
        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":" + flat + "}}",
                reply.getStringExtra("mobile-mcp-response"));
    }

    @Test
    public void failure_isFlatToo() throws Exception {
        agent.startService(prototypeIntent("{\"id\":\"p2\",\"capability\":{\"id\":\"send_sms\",\"input\":{}}}"));

        Intent reply = agent.awaitReply();
        assertEquals("{\"id\":\"p2\",\"capability\":{\"id\":\"send_sms\"},\"status\":\"failure\","
                + "\"message\":\"send_sms: to_phone_number is required (string: The phone number the SMS should be sent to in "
                + "international format starting with a plus sign followed by the country code. For example +36201234567); "
                + "sms_text is required (string: The text of the sms messages to be sent. The maximum length is 160 characters)\","
                + "\"error_code\":\"invalid_arguments\"}",
                reply.getStringExtra("response"));
        assertEquals("p2", reply.getStringExtra("mcp_request_id"));
    }

    @Test
    public void specRequest_getsNoPrototypeExtras() throws Exception {
        agent.startService(agent.intentFor(WireRule.request("s1", "get_sms_subscriptions", "{}")));

        Intent reply = agent.awaitReply();
        assertEquals(null, reply.getStringExtra("response"));
        assertEquals(null, reply.getStringExtra("mcp_request_id"));
        assertEquals(1, reply.getExtras().size());
    }
}

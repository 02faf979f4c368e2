package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import android.app.Activity;

import io.github.mobilemcp.client.CallTimeoutException;
import io.github.mobilemcp.client.MobileMcpClient;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.client.Request;
import io.github.mobilemcp.client.Tool;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.json.JSONObject;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowSmsManager;

/**
 * An assistant's own timeout fires before the radio confirms an SMS, and the assistant retries:
 * exactly one SMS goes to the radio, and the retry gets the first run's reply.
 */
@RunWith(McpTestRunner.class)
@Config(shadows = RecordingSmsManager.class)
public class SafeRetryTest {
    private static final String APP = "io.github.mobilemcp.app";

    @Rule public final WireRule agent = new WireRule(ToolService.class).withoutConsent(); // SIMs and permissions

    private final Phone phone = new Phone();

    private ToolHost host;
    private MobileMcpClient client;

    @Before
    public void setUp() {
        RecordingSmsManager.SENDS.clear();
        host = new ToolHost(agent.app());
        client = new MobileMcpClient(agent.app());
        agent.settings().allow(APP);
    }

    @After
    public void tearDown() {
        client.close();
        host.close();
    }

    @Test
    public void aRetryAfterTheClientsTimeout_sendsOneSms() throws Exception {
        Tool tool = client.discover().tools().get(0);
        JSONObject args = new JSONObject().put("to_phone_number", "+36201234567").put("sms_text", "On my way").put("subscription_id", 14);

        Request send = client.request(tool, "send_sms", args).withTimeoutMillis(500);
        CompletableFuture<Reply> first = send.send();
        host.idleUntil("the first send", () -> RecordingSmsManager.SENDS.size() == 1);
        // The radio has not confirmed the SMS when the assistant's own timeout fires.
        host.idleUntil("the client's timeout", first::isDone);
        try {
            first.get();
            fail("a reply came before the radio confirmed");
        } catch (ExecutionException e) {
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof CallTimeoutException);
            assertSame(send, ((CallTimeoutException) e.getCause()).request());
            assertEquals("no reply from io.github.mobilemcp.app/io.github.mobilemcp.app.ToolService to send_sms (request " + send.id()
                    + ") within 500 ms, the client's timeout (the tool's own deadline for send_sms is 60000 ms); it may have run:"
                    + " retry with the same request (Request.send) to get its reply, which never runs it twice", e.getCause().getMessage());
        }

        // The same request again, while the tool still waits for the radio: it waits for the first run.
        CompletableFuture<Reply> retry = send.withTimeoutMillis(10_000).send();
        // The radio confirms every SMS it was given, the first one included.
        List<ShadowSmsManager.TextMultipartParams> confirmed = new ArrayList<>();
        host.idleUntil("the retry's reply", () -> {
            for (ShadowSmsManager.TextMultipartParams sent : RecordingSmsManager.SENDS) {
                if (!confirmed.contains(sent)) {
                    confirmed.add(sent);
                    radioConfirms(sent);
                }
            }
            return retry.isDone();
        });
        Reply reply = retry.get();

        assertEquals("exactly one SMS went to the radio", 1, RecordingSmsManager.SENDS.size());
        assertEquals("success: SMS sent to +36201234567", (reply.isSuccess() ? "success" : "failure") + ": " + reply.message());
        assertEquals("the first run's reply", send.id(), reply.id());

        // Once more, after the reply: the stored reply, and still one SMS.
        Reply again = host.await(send.withTimeoutMillis(10_000).send());
        assertEquals(reply.json(), again.json());
        assertEquals(1, RecordingSmsManager.SENDS.size());
    }

    private void radioConfirms(ShadowSmsManager.TextMultipartParams sent) {
        try {
            sent.getSentIntents().get(0).send(agent.app(), Activity.RESULT_OK, null);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}

package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.app.NotificationManager;
import android.app.PendingIntent;
import android.content.Intent;

import io.github.mobilemcp.client.MobileMcpClient;
import io.github.mobilemcp.client.MobileMcpClient.Mode;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.client.Tool;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.testing.McpTestRunner;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.json.JSONObject;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * The confused deputy (docs/security.md). An assistant the user allowed to send SMS calls a tool in
 * intent mode with the client library, which hands the tool a mutable PendingIntent the assistant
 * created. That tool, a relay, sends the PendingIntent on to this app's ToolService as its own
 * callback, with a send_sms request. getCreatorPackage() names the assistant, but an Intent's
 * caller is only a claim: nothing is sent, nobody is asked in the assistant's name, and the reply
 * tells the caller to bind. The assistant itself, through the client library, sends by binding,
 * where its Binder uid names it.
 *
 * <p>Here the assistant is this app (the client library runs in it), and the relay is the test,
 * which takes the Intent the client started instead of the tool it was meant for.
 */
@RunWith(McpTestRunner.class)
public class ConfusedDeputyTest {
    private static final String ASSISTANT = "io.github.mobilemcp.app";
    private static final String SEND = "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}";
    static final String BIND_TO_CHANGE = "send_sms changes something on this phone, so it runs only for a caller that"
            + " Android identifies: bind to this tool's service and send the request as a Message (binding mode)."
            + " A request in an Intent names only the app that created its callback PendingIntent, and any app"
            + " holding that PendingIntent can send it";

    @Rule public final FakeAgent agent = FakeAgent.withoutConsent(); // SIMs and permissions

    private ToolHost host;
    private MobileMcpClient client;

    @Before
    public void setUp() throws Exception {
        host = new ToolHost(agent.app);
        client = new MobileMcpClient(agent.app);
        agent.tool().allow(ASSISTANT);
        agent.engine().setSendRateLimit("1/hour"); // a refusal that used budget would show
    }

    @After
    public void tearDown() {
        client.close();
        host.close();
    }

    @Test
    public void aRelayedCallbackSendsNothing_andTheAssistantStillSendsByBinding() throws Exception {
        Tool tool = client.discover().tools().get(0);
        // The assistant calls a tool, in intent mode; the relay gets the Intent it started.
        CompletableFuture<Reply> handedOver = client.invoke(tool, "get_sms_subscriptions", null, 10_000, Mode.INTENT);
        Intent toTheRelay = shadowOf(agent.app).getNextStartedService();
        PendingIntent assistants = toTheRelay.getParcelableExtra(Intentbridge.ExtraCallback);
        assertEquals("the creator is the assistant", ASSISTANT, assistants.getCreatorPackage());

        // The relay sends it to this app's tool as its own callback, with send_sms.
        agent.app.startService(new Intent(Intentbridge.ServiceAction)
                .setComponent(ToolHost.TOOL)
                .putExtra(Intentbridge.ExtraRequest, FakeAgent.specRequest("relayed-1", "send_sms", SEND))
                .putExtra(Intentbridge.ExtraCallback, assistants));
        host.idleUntil("the reply", handedOver::isDone);
        try {
            handedOver.get();
            fail("the assistant's call got a reply to another request");
        } catch (ExecutionException e) {
            assertTrue(e.getCause().getMessage(), e.getCause().getMessage().endsWith("with a reply to request relayed-1"));
        }
        List<Intent> broadcasts = shadowOf(agent.app).getBroadcastIntents();
        Intent reply = broadcasts.get(broadcasts.size() - 1);
        assertEquals(FakeAgent.failureReply("relayed-1", "send_sms", BIND_TO_CHANGE, "permission_denied"),
                reply.getStringExtra(Intentbridge.ExtraResponse));
        assertTrue("0 SMS sent", agent.nothingSent());
        assertNull("nobody is asked in the assistant's name", shadowOf(agent.app.getSystemService(NotificationManager.class))
                .getNotification(ASSISTANT, FakeAgent.CONSENT_NOTIFICATION_ID));
        assertTrue(agent.engine().callersJSON(), agent.engine().callersJSON().startsWith("[{\"package\":\"" + ASSISTANT + "\","));
        assertTrue(agent.engine().callersJSON(), agent.engine().callersJSON().contains("\"decision\":\"allowed\""));

        // The assistant asks for intent mode, but the client library binds for what changes
        // something; its one send of the hour was not used by the refusal.
        CompletableFuture<Reply> sending = client.invoke(tool, "send_sms", new JSONObject(SEND), 10_000, Mode.INTENT);
        host.idleUntil("the send", () -> agent.sms(14).getLastSentMultipartTextMessageParams() != null);
        agent.sms(14).getLastSentMultipartTextMessageParams().getSentIntents().get(0).send(agent.app, Activity.RESULT_OK, null);
        Reply sent = host.await(sending);
        assertEquals(sent.json(), "SMS sent to +36201234567", sent.message());
        assertEquals("the send was bound", 1, shadowOf(agent.app).getBoundServiceConnections().size());
    }

    /** The same relay with the prototype agent's extras: the refusal comes in its layout too. */
    @Test
    public void aRelayInThePrototypesShape_getsTheRefusalInItsLayout() throws Exception {
        Intent relayed = agent.specIntentFrom(ASSISTANT, 7, "")
                .putExtra("request", "{\"id\":\"p1\",\"capability\":{\"id\":\"send_sms\",\"input\":" + SEND + "}}");
        relayed.removeExtra(Intentbridge.ExtraRequest);
        relayed.putExtra("mcp_callback", (PendingIntent) relayed.getParcelableExtra(Intentbridge.ExtraCallback));
        relayed.removeExtra(Intentbridge.ExtraCallback);
        agent.start(ToolService.class, relayed);
        Intent reply = agent.awaitReply();
        assertEquals("{\"id\":\"p1\",\"capability\":{\"id\":\"send_sms\"},\"status\":\"failure\",\"message\":"
                + JSONObject.quote(BIND_TO_CHANGE) + ",\"error_code\":\"permission_denied\"}", reply.getStringExtra("response"));
        assertTrue(agent.nothingSent());
    }
}

package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.robolectric.Shadows.shadowOf;

import android.app.NotificationManager;
import android.app.PendingIntent;
import android.content.ComponentName;
import android.content.Intent;

import io.github.mobilemcp.client.MobileMcpClient;
import io.github.mobilemcp.client.Mode;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.client.Tool;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.InstalledApps;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

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
 * The confused deputy (docs/security.md). An assistant the user allowed to use the tool's
 * capabilities that change something calls a tool in intent mode with the client library, which
 * hands the tool a mutable PendingIntent the assistant created. That tool, a relay, sends the
 * PendingIntent on to the test tool as its own callback, with a record request. getCreatorPackage()
 * names the assistant, but an Intent's caller is only a claim: nothing is recorded, nobody is asked
 * in the assistant's name, and the reply tells the caller to bind. The assistant itself, through the
 * client library, records by binding, where its Binder uid names it.
 *
 * <p>Here the assistant is this app (the client library runs in it), and the relay is the test,
 * which takes the Intent the client started instead of the tool it was meant for.
 */
@RunWith(McpTestRunner.class)
public class ConfusedDeputyTest {
    private static final String ASSISTANT = TestTool.APP;
    static final String BIND_TO_CHANGE = "record changes something on this phone, so it runs only for a caller that"
            + " Android identifies: bind to this tool's service and send the request as a Message (binding mode)."
            + " A request in an Intent names only the app that created its callback PendingIntent, and any app"
            + " holding that PendingIntent can send it";

    @Rule public final WireRule agent = new WireRule(TestToolService.class).withoutConsent();
    /** Plays Android between the client library and the tool service. */
    @Rule public final WireRule host = new WireRule(TestToolService.class).withoutConsent();

    private MobileMcpClient client;

    @Before
    public void setUp() throws Exception {
        InstalledApps.uidOf(agent.app(), ASSISTANT); // the PackageManager names this app's uid, as a phone's does
        client = new MobileMcpClient(agent.app());
        agent.settings().allow(ASSISTANT);
        EngineAccess.bridge(agent.app()).setSendRateLimit("1/hour"); // a refusal that used budget would show
    }

    @After
    public void tearDown() {
        client.close();
    }

    @Test
    public void aRelayedCallbackRecordsNothing_andTheAssistantStillRecordsByBinding() throws Exception {
        Tool tool = client.discover().tools().get(0);
        // The assistant calls a tool, in intent mode; the relay gets the Intent it started.
        CompletableFuture<Reply> handedOver = client.request(tool, "inspect", new JSONObject("{\"text\":\"hi\"}")).withMode(Mode.INTENT).withTimeoutMillis(10_000).send();
        Intent toTheRelay = shadowOf(agent.app()).getNextStartedService();
        PendingIntent assistants = toTheRelay.getParcelableExtra(Intentbridge.ExtraCallback);
        assertEquals("the creator is the assistant", ASSISTANT, assistants.getCreatorPackage());

        // The relay sends it to the test tool as its own callback, with record.
        agent.app().startService(new Intent(Intentbridge.ServiceAction)
                .setComponent(new ComponentName(agent.app(), TestToolService.class))
                .putExtra(Intentbridge.ExtraRequest, WireRule.request("relayed-1", "record", "{\"text\":\"relayed\"}"))
                .putExtra(Intentbridge.ExtraCallback, assistants));
        try {
            host.await(handedOver);
            fail("the assistant's call got a reply to another request");
        } catch (ExecutionException e) {
            assertTrue(e.getCause().getMessage(), e.getCause().getMessage().endsWith("with a reply to request relayed-1"));
        }
        List<Intent> broadcasts = shadowOf(agent.app()).getBroadcastIntents();
        Intent reply = broadcasts.get(broadcasts.size() - 1);
        assertEquals(WireRule.failureReply("relayed-1", "record", BIND_TO_CHANGE, "permission_denied"),
                reply.getStringExtra(Intentbridge.ExtraResponse));
        assertEquals("nothing recorded", List.of(), TestTool.recorded());
        assertNull("nobody is asked in the assistant's name", shadowOf(agent.app().getSystemService(NotificationManager.class))
                .getNotification(ASSISTANT, TestTool.CONSENT_NOTIFICATION_ID));
        assertTrue(EngineAccess.bridge(agent.app()).callersJSON(), EngineAccess.bridge(agent.app()).callersJSON().startsWith("[{\"package\":\"" + ASSISTANT + "\","));
        assertTrue(EngineAccess.bridge(agent.app()).callersJSON(), EngineAccess.bridge(agent.app()).callersJSON().contains("\"decision\":\"allowed\""));

        // The assistant asks for intent mode, but the client library binds for what changes
        // something; its one call of the hour was not used by the refusal.
        Reply recorded = host.await(client.request(tool, "record", new JSONObject("{\"text\":\"mine\"}")).withMode(Mode.INTENT).withTimeoutMillis(10_000).send());
        assertEquals(recorded.json(), "Recorded", recorded.message());
        assertEquals(1L, recorded.getLong("count"));
        assertEquals(List.of("mine"), TestTool.recorded());
        assertEquals("the call was bound", 1, shadowOf(agent.app()).getBoundServiceConnections().size());
    }

    /** The same relay with the prototype agent's extras: the refusal comes in its layout too. */
    @Test
    public void aRelayInThePrototypesShape_getsTheRefusalInItsLayout() throws Exception {
        Intent relayed = agent.intentFrom(ASSISTANT, "")
                .putExtra("request", "{\"id\":\"p1\",\"capability\":{\"id\":\"record\",\"input\":{\"text\":\"relayed\"}}}");
        relayed.removeExtra(Intentbridge.ExtraRequest);
        relayed.putExtra("mcp_callback", (PendingIntent) relayed.getParcelableExtra(Intentbridge.ExtraCallback));
        relayed.removeExtra(Intentbridge.ExtraCallback);
        agent.startService(relayed);
        Intent reply = agent.awaitReply();
        assertEquals("{\"id\":\"p1\",\"capability\":{\"id\":\"record\"},\"status\":\"failure\",\"message\":"
                + JSONObject.quote(BIND_TO_CHANGE) + ",\"error_code\":\"permission_denied\"}", reply.getStringExtra("response"));
        assertEquals(List.of(), TestTool.recorded());
    }
}

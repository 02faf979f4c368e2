package io.github.mobilemcp.notes;

import io.github.mobilemcp.Consent;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Application;
import android.app.Notification;
import android.app.NotificationManager;
import android.app.PendingIntent;
import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.os.Build;

import io.github.mobilemcp.client.Capability;
import io.github.mobilemcp.client.Discovery;
import io.github.mobilemcp.client.MobileMcpClient;
import io.github.mobilemcp.client.Mode;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.client.Tool;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.McpToolRule;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.json.JSONObject;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RuntimeEnvironment;

/**
 * The notes tool as real agents reach it: the client library's discovery and both of its modes, and
 * an exact reproduction of the spec authors' prototype agent. The agent is this test's app, so the
 * tool sees the caller io.github.mobilemcp.notes.
 */
@RunWith(McpTestRunner.class)
public class NotesAgentsTest {
    @Rule public final McpToolRule tool = new McpToolRule(NotesToolService.class);

    private final Application app = RuntimeEnvironment.getApplication();
    private final MobileMcpClient client = new MobileMcpClient(app);

    @After
    public void closeClient() {
        client.close();
    }

    @Test
    public void theClientLibraryDiscoversTheNotesToolFromItsDescriptor() throws Exception {
        Discovery found = client.discover(); // queryIntentServices + getResourcesForApplication().getXml
        assertEquals(List.of(), found.problems());
        assertEquals(1, found.tools().size());
        Tool notes = found.tools().get(0);
        assertEquals("Notes", notes.name());
        assertEquals("Keeps short text notes on this phone: create, list and delete them.", notes.description());
        assertEquals(NotesToolService.class.getName(), notes.serviceName());
        List<String> ids = new ArrayList<>();
        for (Capability c : notes.capabilities()) {
            ids.add(c.id());
        }
        assertEquals(List.of("create_note", "list_notes", "delete_note"), ids);
        assertEquals("{\"type\":\"string\",\"description\":\"A short title.\",\"maxLength\":100}",
                notes.capability("create_note").toMcpTool().getJSONObject("inputSchema").getJSONObject("properties").getJSONObject("title").toString());
    }

    @Test
    public void theClientLibraryCallsItInIntentAndBindingMode() throws Exception {
        Tool notes = client.discover().tools().get(0);
        Reply none = tool.await(client.request(notes, "list_notes", null).withMode(Mode.INTENT).withTimeoutMillis(10_000).send());
        assertEquals("0 notes", none.message());
        // create_note changes something: asked for in intent mode, the client binds for it.
        Reply created = tool.await(client.request(notes, "create_note", new JSONObject().put("title", "Milk")).withMode(Mode.INTENT).withTimeoutMillis(10_000).send());
        assertEquals("Created note 1", created.message());
        assertEquals(1, ((Number) created.outputs().get("id")).intValue());
        Reply listed = tool.await(client.request(notes, "list_notes", null).withMode(Mode.BINDING).withTimeoutMillis(10_000).send());
        assertEquals("1 note", listed.message());
        assertEquals("[{\"id\":1,\"title\":\"Milk\",\"body\":\"\"}]", listed.outputs().get("notes").toString());
        Reply deleted = tool.await(client.request(notes, "delete_note", new JSONObject().put("id", 1)).withMode(Mode.BINDING).withTimeoutMillis(10_000).send());
        assertEquals("success", (deleted.isSuccess() ? "success" : "failure"));
    }

    /**
     * The prototype agent (system-pclub/mobile-mcp, llm-app) exactly: the request in the extra
     * "request" with input as a JSON string, a broadcast callback in "mcp_callback" made with the
     * request id's hashCode, FLAG_UPDATE_CURRENT | FLAG_MUTABLE, started with
     * startForegroundService; it reads "response" and "mcp_request_id". Its reads run; a call that
     * changes something is refused in its layout, telling it to bind, since in an Intent the caller
     * is only the creator of the callback, which any app holding it can claim.
     */
    @Test
    public void thePrototypeAgentGetsItsFlatReply() throws Exception {
        assertEquals("{\"id\":\"P1\",\"capability\":{\"id\":\"create_note\"},\"status\":\"failure\",\"message\":"
                + "\"create_note changes something on this phone, so it runs only for a caller that Android identifies: bind to this"
                + " tool's service and send the request as a Message (binding mode). A request in an Intent names only the app that"
                + " created its callback PendingIntent, and any app holding that PendingIntent can send it\",\"error_code\":\"permission_denied\"}",
                prototypeCall("create_note", "{\"title\":\"Call Mum\"}"));
        tool.call("create_note", "{\"title\":\"Call Mum\"}"); // bound
        assertEquals("{\"id\":\"P1\",\"capability\":{\"id\":\"list_notes\",\"output\":[{\"name\":\"count\",\"type\":\"integer\",\"value\":1},"
                + "{\"name\":\"notes\",\"type\":\"array\",\"value\":[{\"id\":1,\"title\":\"Call Mum\",\"body\":\"\"}]}]},"
                + "\"status\":\"success\",\"message\":\"1 note\"}", prototypeCall("list_notes", "{}"));
    }

    /** Calls as the prototype agent does and returns its "response" extra, the id replaced by P1. */
    private String prototypeCall(String capability, String input) throws Exception {
        String id = UUID.randomUUID().toString();
        List<Intent> results = new ArrayList<>();
        String action = "io.github.mobilemcp.notes.test.MCP_RESULT"; // the agent's own receiver
        BroadcastReceiver receiver = new BroadcastReceiver() {
            @Override
            public void onReceive(Context context, Intent intent) {
                results.add(intent);
            }
        };
        app.registerReceiver(receiver, new IntentFilter(action), Context.RECEIVER_NOT_EXPORTED);
        Intent cb = new Intent(action).setPackage(app.getPackageName()).putExtra("mcp_request_id", id);
        int flags = PendingIntent.FLAG_UPDATE_CURRENT | (Build.VERSION.SDK_INT >= 31 ? PendingIntent.FLAG_MUTABLE : 0);
        PendingIntent callback = PendingIntent.getBroadcast(app, id.hashCode(), cb, flags);
        JSONObject request = new JSONObject().put("id", id)
                .put("capability", new JSONObject().put("id", capability).put("input", input)); // input as a JSON string
        Intent service = new Intent().setClassName(app.getPackageName(), NotesToolService.class.getName())
                .putExtra("request", request.toString())
                .putExtra("mcp_callback", callback);
        assertNotNull(app.getPackageManager().resolveService(service, 0)); // the agent checks first
        app.startForegroundService(service);
        tool.await(java.util.concurrent.CompletableFuture.supplyAsync(() -> null)); // hands the start to the service
        McpToolRule.idleUntil("the prototype's reply", () -> !results.isEmpty());
        app.unregisterReceiver(receiver);
        assertEquals(1, results.size());
        assertEquals(id, results.get(0).getStringExtra("mcp_request_id"));
        return results.get(0).getStringExtra("response").replace(id, "P1");
    }

    @Test
    public void consentIsAskedForWhatChangesNotesAndNotForReading() throws Exception {
        tool.settings().forget(app.getPackageName()); // as a new agent: no decision yet
        Reply list = tool.call("list_notes", "{}");
        assertEquals("success", (list.isSuccess() ? "success" : "failure"));
        for (String[] call : new String[][] {{"create_note", "{\"title\":\"x\"}"}, {"delete_note", "{\"id\":1}"}}) {
            Reply refused = tool.call(call[0], call[1]);
            assertEquals(call[0], "consent_required", String.valueOf(refused.errorCode()));
            assertEquals("the user has not yet allowed io.github.mobilemcp.notes to use " + call[0]
                    + "; a notification on the phone asks them, so retry once they allow it", refused.message());
        }
        assertEquals("0 notes", tool.call("list_notes", "{}").message()); // nothing was created

        // The notification names the calling app and this tool.
        NotificationManager nm = app.getSystemService(NotificationManager.class);
        List<Notification> posted = new ArrayList<>();
        for (Notification n : shadowOf(nm).getAllNotifications()) {
            if (n.getChannelId().equals("mobilemcp_consent")) { // not the foreground service's
                posted.add(n);
            }
        }
        assertEquals(1, posted.size()); // one per calling app, however often it asked
        assertEquals("Allow io.github.mobilemcp.notes (Notes) to use Notes?", posted.get(0).extras.getString(Notification.EXTRA_TITLE));
        assertTrue(posted.get(0).actions.length == 2);

        // Its Allow button opens the question inside the tool, whose Allow lets the next call through.
        posted.get(0).actions[0].actionIntent.send();
        Intent confirmation = shadowOf(app).getNextStartedActivity();
        assertEquals("io.github.mobilemcp.sdk.internal.ConsentConfirmActivity", confirmation.getComponent().getClassName());
        android.app.Activity screen = org.robolectric.Robolectric.buildActivity(
                io.github.mobilemcp.sdk.internal.ConsentConfirmActivity.class, confirmation).setup().get();
        android.view.ViewGroup layout = (android.view.ViewGroup) ((android.view.ViewGroup) screen.findViewById(android.R.id.content)).getChildAt(0);
        layout.getChildAt(1).performClick(); // Allow
        // Polled while the tool's worker may be recording the decision: until then there may be no caller listed.
        McpToolRule.idleUntil("the decision", () -> tool.settings().getCallers().stream()
                .anyMatch(c -> c.getConsent() == io.github.mobilemcp.Consent.ALLOWED));
        assertEquals("Created note 1", tool.call("create_note", "{\"title\":\"x\"}").message());
    }
}

package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Notification;
import android.app.NotificationManager;
import android.content.Intent;
import android.content.pm.ResolveInfo;
import android.net.Uri;

import io.github.mobilemcp.notes.NotesToolService;
import io.github.mobilemcp.sdk.ToolSettings;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.InstalledApps;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;
import io.github.mobilemcp.smsapp.Smsapp;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The gateway (docs/desktop.md, "Use your phone's tools from a desktop agent"): this app and the notes
 * sample both installed, an MCP client over real HTTP to this app's server on the loopback, and
 * the notes tool served by it only once the user shares it. The notes app runs its real
 * NotesToolService on the Tool SDK, with its own engine, decisions and files ({@link OtherApp}),
 * and the gateway reaches it with the client library, as any assistant does.
 */
@RunWith(McpTestRunner.class)
public class GatewayTest {
    private static final String APP = "io.github.mobilemcp.app";
    private static final String NOTES = "io.github.mobilemcp.notes";
    /** The start of the names of the notes app's tools: its package, in the alphabet of tool names. */
    private static final String NOTES_TOOL = "io_github_mobilemcp_notes";
    private static final String CREATE_NOTE = NOTES_TOOL + "-create_note";
    private static final List<String> OWN = List.of("get_sms_subscriptions", "send_sms");
    private static final List<String> WITH_NOTES = List.of("get_sms_subscriptions", CREATE_NOTE, NOTES_TOOL + "-delete_note", NOTES_TOOL + "-list_notes", "send_sms");
    /** The app's receiver that forgets the share of a removed package. */
    private static final String SHARES_RECEIVER = "io.github.mobilemcp.app.SharedPackageRemovedReceiver";

    /** The consent question's notification id ("mcp2", tagged with the calling package), the SDK's own. */

    private static final int CONSENT_NOTIFICATION_ID = 0x6d637032;

    @Rule public final WireRule agent = new WireRule(ToolService.class).withoutConsent();

    private final Phone phone = new Phone();

    private int port;
    private ToolHost host;
    private OtherApp notes;
    private final List<OtherApp> others = new ArrayList<>();
    private String token;

    @Before
    public void setUp() throws Exception {
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        McpHttp.of(agent.app()).setPortForTests(port); // on the loopback, the default
        host = new ToolHost(agent.app()); // this app's own tool, which the engine needs to serve
        notes = install(NOTES, "Notes");
        notes.install(NotesToolService.class, "Notes", R.xml.notes_capabilities);
        token = McpHttp.of(agent.app()).start();
    }

    @After
    public void tearDown() {
        McpHttp.of(agent.app()).stop();
        for (OtherApp other : others) {
            other.stopTool();
        }
        host.close();
    }

    private OtherApp install(String pkg, String label) {
        OtherApp other = new OtherApp(agent.app(), pkg, label);
        others.add(other);
        return other;
    }

    /** The test resource is the notes sample's descriptor, byte for byte. */
    @Test
    public void theTestDescriptorIsTheNotesSamples() throws IOException {
        assertEquals(Files.readString(Path.of("../notes/res/xml/mcp_capabilities.xml")),
                Files.readString(Path.of("src/test/res/xml/notes_capabilities.xml")));
    }

    @Test
    public void anotherAppsToolIsServedOnlyOnceTheUserSharesIt_andItsConsentNamesTheGateway() throws Exception {
        assertEquals(List.of("get_sms_subscriptions", "send_sms"), toolNames());
        Gateway gateway = Gateway.of(agent.app());
        assertEquals("[io.github.mobilemcp.notes (Notes): not shared]", gateway.tools().toString());
        assertEquals("an unshared tool is not called", "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"unknown tool \\\"" + CREATE_NOTE + "\\\"\"}}",
                call(CREATE_NOTE, "{\"title\":\"Milk\"}"));

        gateway.setShared(NOTES, true);
        awaitTools(List.of("get_sms_subscriptions", NOTES_TOOL + "-create_note", NOTES_TOOL + "-delete_note", NOTES_TOOL + "-list_notes", "send_sms"));
        assertEquals("[io.github.mobilemcp.notes (Notes): shared]", gateway.tools().toString());

        // The notes app asks its user about the caller, which is the gateway app.
        assertEquals(toolError("consent_required", "consent_required: the user has not yet allowed io.github.mobilemcp.app to use create_note;"
                        + " a notification on the phone asks them, so retry once they allow it"),
                call(CREATE_NOTE, "{\"title\":\"Milk\",\"body\":\"2 l\"}"));
        Notification asked = notification(APP); // the notes app's question about the gateway
        assertEquals("Allow io.github.mobilemcp.app (mobilemcp) to use Notes?", asked.extras.getString(Notification.EXTRA_TITLE));
        assertEquals(List.of(APP), callers(ToolSettings.get(notes)));
        assertEquals("this app's own tool was not asked", List.of(), callers(ToolSettings.get(agent.app())));
        assertEquals("nothing ran before the user allowed it", 0, new JSONObject(call(NOTES_TOOL + "-list_notes", "{}"))
                .getJSONObject("result").getJSONObject("structuredContent").getInt("count"));

        ToolSettings.get(notes).allow(APP); // the user taps Allow
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Created note 1\"}],\"structuredContent\":{\"id\":1}}}",
                call(CREATE_NOTE, "{\"title\":\"Milk\",\"body\":\"2 l\"}"));
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"1 note\"}],"
                        + "\"structuredContent\":{\"count\":1,\"notes\":[{\"id\":1,\"title\":\"Milk\",\"body\":\"2 l\"}]}}}",
                call(NOTES_TOOL + "-list_notes", "{}"));
        // The notes tool validated the arguments itself.
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"_meta\":{\"io.github.mobilemcp/error_code\":\"invalid_arguments\"},"
                        + "\"content\":[{\"type\":\"text\",\"text\":\"invalid_arguments: title is blank; give the note a title\"}],\"isError\":true}}",
                call(CREATE_NOTE, "{\"title\":\"  \"}"));

        gateway.setShared(NOTES, false);
        awaitTools(List.of("get_sms_subscriptions", "send_sms"));
    }

    @Test
    public void uninstallingTheAppRemovesItsTools() throws Exception {
        Gateway.of(agent.app()).setShared(NOTES, true);
        awaitTools(List.of("get_sms_subscriptions", NOTES_TOOL + "-create_note", NOTES_TOOL + "-delete_note", NOTES_TOOL + "-list_notes", "send_sms"));
        notes.uninstall();
        awaitTools(List.of("get_sms_subscriptions", "send_sms"));
        assertEquals("[]", Gateway.of(agent.app()).tools().toString());
    }

    /**
     * A share belongs to the app the user shared: another app under the name (signed with another
     * certificate) is not served, and not called, until the user turns it on again. Here the
     * server was off while the name changed hands, so the gateway heard no broadcast.
     */
    @Test
    public void aShareIsKeptWithTheSigner_anotherAppUnderTheNameIsNotServedUntilSharedAgain() throws Exception {
        Gateway gateway = shareNotes();

        McpHttp.of(agent.app()).stop();
        InstalledApps.sign(agent.app(), NOTES, "another developer's certificate");
        token = McpHttp.of(agent.app()).start();
        assertEquals(OWN, toolNames());
        assertEquals("[io.github.mobilemcp.notes (Notes): not shared]", gateway.tools().toString());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32602,\"message\":\"unknown tool \\\"" + CREATE_NOTE + "\\\"\"}}",
                call(CREATE_NOTE, "{\"title\":\"Milk\"}"));
        assertFalse("the share is dropped, not kept for the old signer",
                agent.app().getSharedPreferences(Gateway.PREFS, 0).contains(NOTES));

        gateway.setShared(NOTES, true); // the user turns it on again, for the app that has the name now
        awaitTools(WITH_NOTES);
        assertEquals("[io.github.mobilemcp.notes (Notes): shared]", gateway.tools().toString());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"0 notes\"}],"
                        + "\"structuredContent\":{\"count\":0,\"notes\":[]}}}",
                call(NOTES_TOOL + "-list_notes", "{}"));
    }

    /**
     * A call checks the signer too: an app whose certificate changed since the user shared it is
     * not called, and its tools go, even before a package broadcast says so.
     */
    @Test
    public void aCallToAnAppSignedByAnotherCertificate_isRefusedAndItsToolsGo() throws Exception {
        Gateway gateway = shareNotes();

        InstalledApps.sign(agent.app(), NOTES, "another developer's certificate");
        assertEquals(toolError("platform_error", "platform_error: " + CREATE_NOTE + " could not be reached: " + NOTES
                        + " is signed by another certificate than when it was shared; share it again to use it"),
                call(CREATE_NOTE, "{\"title\":\"Milk\"}"));
        awaitTools(OWN);
        assertEquals("[io.github.mobilemcp.notes (Notes): not shared]", gateway.tools().toString());

        gateway.setShared(NOTES, true);
        awaitTools(WITH_NOTES);
        assertEquals("nothing was created", 0, new JSONObject(call(NOTES_TOOL + "-list_notes", "{}"))
                .getJSONObject("result").getJSONObject("structuredContent").getInt("count"));
    }

    /**
     * Removing the app drops the share: the system's PACKAGE_FULLY_REMOVED reaches the receiver this
     * app's manifest declares, even while the server is off, and the app installed again is not
     * shared until the user turns it on.
     */
    @Test
    public void removingTheAppDropsItsShare() throws Exception {
        Gateway gateway = shareNotes();
        McpHttp.of(agent.app()).stop();

        Intent removed = new Intent(Intent.ACTION_PACKAGE_FULLY_REMOVED, Uri.fromParts("package", NOTES, null));
        ResolveInfo receiver = null;
        for (ResolveInfo r : agent.app().getPackageManager().queryBroadcastReceivers(removed, 0)) {
            if (r.activityInfo.name.equals(SHARES_RECEIVER)) {
                receiver = r;
            }
        }
        assertNotNull("the manifest declares " + SHARES_RECEIVER + " for PACKAGE_FULLY_REMOVED", receiver);
        assertFalse("only the system may send it", receiver.activityInfo.exported);
        notes.uninstall();
        // Robolectric matches the manifest's filter, but delivers only to the component named.
        agent.app().sendBroadcast(removed.setClassName(agent.app(), SHARES_RECEIVER));
        WireRule.idleUntil("the share to go", () -> !agent.app().getSharedPreferences(Gateway.PREFS, 0).contains(NOTES));

        notes.install(NotesToolService.class, "Notes", R.xml.notes_capabilities); // the same app, same certificate
        token = McpHttp.of(agent.app()).start();
        assertEquals(OWN, toolNames());
        assertEquals("[io.github.mobilemcp.notes (Notes): not shared]", gateway.tools().toString());
    }

    @Test
    public void aToolThatThrowsOrOverrunsIsAToolError() throws Exception {
        OtherApp broken = install("com.example.broken", "Broken");
        EngineAccess.setTimeoutMillis(broken, 300);
        broken.install(BrokenToolService.class, "Broken", R.xml.notes_capabilities);
        ToolSettings.get(broken).allow(APP);
        Gateway.of(agent.app()).setShared("com.example.broken", true);
        awaitTool("com_example_broken-create_note");

        String thrown = call("com_example_broken-create_note", "{\"title\":\"Milk\"}");
        // The request id is the one the gateway gave the call; the exception's text stays in the tool.
        assertEquals(toolError("internal_error", "internal_error: create_note failed: its handler threw an exception,"
                + " which the tool logged under request ID"), thrown.replaceFirst("under request [0-9a-f-]{36}", "under request ID"));
        assertEquals(toolError("timeout", "timeout: list_notes did not finish within 300ms"),
                call("com_example_broken-list_notes", "{}"));
    }

    @Test
    public void aToolThatNeverAnswersIsAToolErrorNamingIt() throws Exception {
        Smsapp.serverFor(EngineAccess.bridge(agent.app())).setRemoteTimeoutMillis(500);
        install("com.example.stuck", "Stuck").installUnanswering("Stuck", R.xml.notes_capabilities);
        Gateway.of(agent.app()).setShared("com.example.stuck", true);
        awaitTool("com_example_stuck-list_notes");

        assertEquals(toolError("timeout", "timeout: com_example_stuck-list_notes did not finish within 500ms"),
                call("com_example_stuck-list_notes", "{}"));
    }

    /** Shares the notes tool, which its user allowed the gateway app to use, once its tools are served. */
    private Gateway shareNotes() throws Exception {
        ToolSettings.get(notes).allow(APP);
        Gateway gateway = Gateway.of(agent.app());
        gateway.setShared(NOTES, true);
        awaitTools(WITH_NOTES);
        return gateway;
    }

    private static String toolError(String code, String text) {
        return "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"_meta\":{\"io.github.mobilemcp/error_code\":\"" + code + "\"},"
                + "\"content\":[{\"type\":\"text\",\"text\":" + JSONObject.quote(text) + "}],\"isError\":true}}";
    }

    private static List<String> callers(ToolSettings tool) {
        List<String> packages = new ArrayList<>();
        for (ToolSettings.Caller caller : tool.getCallers()) {
            packages.add(caller.getPackageName());
        }
        return packages;
    }

    private Notification notification(String tag) {
        for (var n : shadowOf(agent.app().getSystemService(NotificationManager.class)).getActiveNotifications()) {
            if (tag.equals(n.getTag()) && n.getId() == CONSENT_NOTIFICATION_ID) {
                return n.getNotification();
            }
        }
        throw new AssertionError("no consent notification for " + tag);
    }

    private String call(String tool, String args) throws Exception {
        return post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + args + "}}");
    }

    private List<String> toolNames() throws Exception {
        JSONArray tools = new JSONObject(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                .getJSONObject("result").getJSONArray("tools");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < tools.length(); i++) {
            names.add(tools.getJSONObject(i).getString("name"));
        }
        Collections.sort(names);
        return names;
    }

    private void awaitTools(List<String> want) throws Exception {
        long deadline = System.currentTimeMillis() + WireRule.WAIT_MILLIS;
        List<String> got = toolNames();
        while (!got.equals(want) && System.currentTimeMillis() < deadline) {
            WireRule.idleUntil("a moment", () -> true);
            Thread.sleep(20);
            got = toolNames();
        }
        assertEquals(want, got);
    }

    private void awaitTool(String name) throws Exception {
        long deadline = System.currentTimeMillis() + WireRule.WAIT_MILLIS;
        while (!toolNames().contains(name)) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("the gateway never served " + name + ": " + toolNames());
            }
            WireRule.idleUntil("a moment", () -> true);
            Thread.sleep(20);
        }
    }

    /**
     * POSTs body with the token from another thread, as a desktop client would, while this (main)
     * thread keeps Android's part going (bindings connect on the main looper), and returns the body.
     */
    private String post(String body) throws Exception {
        CompletableFuture<String> reply = CompletableFuture.supplyAsync(() -> {
            try {
                return httpPost(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        WireRule.idleUntil("the MCP reply", reply::isDone);
        return reply.get();
    }

    private String httpPost(String body) throws IOException {
        String reply = McpPost.post(port, token, body);
        if (!reply.startsWith("200 ")) {
            throw new IOException("HTTP " + reply);
        }
        return reply.substring("200 ".length());
    }
}

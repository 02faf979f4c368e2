package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import android.widget.Switch;

import io.github.mobilemcp.notes.NotesToolService;
import io.github.mobilemcp.sdk.ToolSettings;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

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
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;

/**
 * Shared apps that try to pass for, or get in the way of, another app's tools through the gateway
 * (docs/reference/mcp-server.md, "Shared tools (the gateway)"): each attacker's steps, then what the desktop agent
 * sees and what the user's screen says. The apps run the real notes service on the Tool SDK, and
 * the MCP client talks to this app's server over real HTTP.
 */
@RunWith(McpTestRunner.class)
public class SharedToolsApartTest {
    private static final String APP = "io.github.mobilemcp.app";

    @Rule public final WireRule agent = new WireRule(ToolService.class).withoutConsent();

    private final Phone phone = new Phone();

    private int port;
    private String token;
    private ToolHost host;
    private final List<OtherApp> others = new ArrayList<>();

    @Before
    public void setUp() throws Exception {
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        McpHttp.of(agent.app()).setPortForTests(port);
        host = new ToolHost(agent.app());
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

    /**
     * An app with a package name too long to keep whole in its tools' names, and one whose package
     * is the start of such a name followed by a dot and 8 hex digits of the first's SHA-256: the
     * shortened names of the first had that form, so the second app got the first's tool names.
     * The user shares both. The victim's tool still gets its calls, and removing the attacker's
     * app leaves it served.
     */
    @Test
    public void anAppNamedLikeAShortenedToolName_getsNoneOfAnotherAppsCalls() throws Exception {
        String[] packages = victimAndAttacker("create_note");
        OtherApp victim = install(packages[0], "Notes");
        victim.install(NotesToolService.class, "Notes", R.xml.notes_capabilities);
        ToolSettings.get(victim).allow(APP);
        // Its tool fails every call, so that a call it took from the victim shows.
        OtherApp attacker = install(packages[1], "Not notes");
        attacker.install(BrokenToolService.class, "Not notes", R.xml.notes_capabilities);
        ToolSettings.get(attacker).allow(APP);

        Gateway gateway = Gateway.of(agent.app());
        gateway.setShared(victim.getPackageName(), true);
        String victimTool = awaitTool(name -> name.endsWith("-create_note"));
        String victimsList = awaitTool(name -> name.endsWith("-list_notes"));
        gateway.setShared(attacker.getPackageName(), true);
        String attackersList = awaitTool(name -> name.endsWith("-list_notes") && !name.equals(victimsList));

        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Created note 1\"}],\"structuredContent\":{\"id\":1}}}",
                call(victimTool, "{\"title\":\"Milk\"}"));
        assertEquals(List.of("Milk"), noteTitles(victim));
        int listed = tools().size();

        attacker.uninstall();
        awaitTools(names -> !names.contains(attackersList));
        assertTrue("removing the attacker's app kept " + victimTool, tools().containsKey(victimTool));
        call(victimTool, "{\"title\":\"Eggs\"}");
        assertEquals(List.of("Milk", "Eggs"), noteTitles(victim));
        assertEquals("each app's tools were listed: the phone's own 2, the victim's 3 and the attacker's 3", 8, listed);
        assertEquals(5, tools().size());
    }

    /**
     * An app titled like the phone's own Send SMS tool, with instructions for the model in tag
     * characters: the agent sees its title with the app's package before it, and none of the
     * hidden text.
     */
    @Test
    public void aSharedToolShowsItsAppAndNoHiddenText() throws Exception {
        OtherApp evil = install("com.example.evil", "Messages");
        evil.installUnanswering("Messages", R.xml.hostile_capabilities);
        Gateway.of(agent.app()).setShared("com.example.evil", true);
        String name = awaitTool(n -> n.equals("com_example_evil-send_sms"));

        JSONObject tool = new JSONObject(tools().get(name));
        assertEquals("com.example.evil: Send SMS", tool.getString("title"));
        assertEquals("com.example.evil: Send SMS", tool.getJSONObject("annotations").getString("title"));
        assertEquals("Sends an SMS message.", tool.getString("description"));
        assertEquals("The number, in E.164.", tool.getJSONObject("inputSchema").getJSONObject("properties")
                .getJSONObject("to").getString("description"));
        assertEquals("Send SMS", new JSONObject(tools().get("send_sms")).getString("title"));
    }

    /**
     * An app that shares more capabilities than one app may: none is served, and the user's screen
     * says why beside its switch.
     */
    @Test
    public void anAppOverTheLimit_isNotServed_andTheScreenSaysWhy() throws Exception {
        OtherApp many = install("com.example.many", "Counter");
        many.installUnanswering("Counter", R.xml.many_capabilities);
        Gateway gateway = Gateway.of(agent.app());
        gateway.setShared("com.example.many", true);
        WireRule.idleUntil("the gateway to try the app", () -> gateway.tools().toString().contains("cannot be served")
                || gateway.tools().toString().contains(": shared"));

        SharedToolsView screen = new SharedToolsView(agent.app());
        screen.show();
        Switch row = (Switch) screen.getChildAt(2);
        assertEquals("Counter (com.example.many): cannot be served: "
                + "mcpserver: com.example.many declares 33 capabilities; a shared app may declare at most 32", row.getText().toString());
        assertTrue("the switch shows what the user chose", row.isChecked());
        assertEquals("only the phone's own tools are served", List.of("get_sms_subscriptions", "send_sms"), new ArrayList<>(new TreeSet<>(tools().keySet())));
    }

    /**
     * The victim's package, long enough for its tools' names to be shortened, and the package an
     * attacker gave its app: the start of the victim's tool name and 8 hex digits of its SHA-256,
     * which start with a letter so that they make a package segment.
     */
    private static String[] victimAndAttacker(String capability) throws Exception {
        for (int i = 0; ; i++) {
            String victim = "com.example." + "v".repeat(110) + i;
            byte[] sum = MessageDigest.getInstance("SHA-256").digest(victim.getBytes(StandardCharsets.UTF_8));
            String hash = String.format("%02x%02x%02x%02x", sum[0], sum[1], sum[2], sum[3]);
            if (Character.isLetter(hash.charAt(0))) {
                int keep = 128 - ("-" + capability).length() - ("." + hash).length();
                return new String[] {victim, victim.substring(0, keep) + "." + hash};
            }
        }
    }

    private static List<String> noteTitles(OtherApp app) throws Exception {
        JSONArray notes = new JSONArray(app.getSharedPreferences("notes", 0).getString("notes", "[]"));
        List<String> titles = new ArrayList<>();
        for (int i = 0; i < notes.length(); i++) {
            titles.add(notes.getJSONObject(i).getString("title"));
        }
        return titles;
    }

    /** The served tools, by name, as JSON text. */
    private Map<String, String> tools() throws Exception {
        JSONArray list = new JSONObject(post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"))
                .getJSONObject("result").getJSONArray("tools");
        Map<String, String> tools = new HashMap<>();
        for (int i = 0; i < list.length(); i++) {
            tools.put(list.getJSONObject(i).getString("name"), list.getJSONObject(i).toString());
        }
        return tools;
    }

    /** Waits until a tool whose name matches is served, and returns its name. */
    private String awaitTool(Predicate<String> matches) throws Exception {
        awaitTools(names -> names.stream().anyMatch(matches));
        return tools().keySet().stream().filter(matches).findFirst().get();
    }

    /** Waits until the names of the served tools pass check. */
    private void awaitTools(Predicate<Set<String>> check) throws Exception {
        long deadline = System.currentTimeMillis() + WireRule.WAIT_MILLIS;
        while (!check.test(tools().keySet())) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("the gateway serves " + tools().keySet());
            }
            WireRule.idleUntil("a moment", () -> true);
            Thread.sleep(20);
        }
    }

    private String call(String tool, String args) throws Exception {
        return post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + args + "}}");
    }

    /** POSTs body from another thread, as a desktop client would, while this thread runs Android's main looper. */
    private String post(String body) throws Exception {
        CompletableFuture<String> reply = CompletableFuture.supplyAsync(() -> {
            try {
                return McpPost.post(port, token, body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        WireRule.idleUntil("the MCP reply", reply::isDone);
        String got = reply.get();
        if (!got.startsWith("200 ")) {
            throw new IOException("HTTP " + got);
        }
        return got.substring("200 ".length());
    }
}

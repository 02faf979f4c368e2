package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.robolectric.Shadows.shadowOf;


import android.app.Activity;
import android.app.Notification;
import android.content.ClipData;
import android.content.ClipDescription;
import android.content.ClipboardManager;
import android.view.View;
import android.view.WindowManager;
import android.widget.CheckBox;
import android.widget.Switch;
import android.widget.TextView;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;
import io.github.mobilemcp.smsapp.Smsapp;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.shadows.ShadowSmsManager;

/**
 * MainActivity's MCP server switch (docs/reference/mcp-server.md, "Shared tools (the gateway)"): off by default; on, the engine's
 * real HTTP server listens on the phone's loopback (every interface only when the user ticks the
 * local network) with a fresh token shown on the screen, and answers
 * a real HTTP request with the token and refuses one without it (401); off, it stops listening.
 * Holding the token is the consent: an HTTP send needs no per-app decision. The server runs in
 * McpServerService, which {@link ToolHost} runs as Android would.
 */
@RunWith(McpTestRunner.class)
public class McpHttpSwitchTest {
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_sms_subscriptions\",\"arguments\":{}}}";
    private static final String SEND = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"send_sms\","
            + "\"arguments\":{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}}}";

    @Rule public final WireRule agent = new WireRule(ToolService.class).withoutConsent(); // SIMs and permissions; no app consent

    private final Phone phone = new Phone();

    private int port;
    private ToolHost host;
    private MainActivity activity;

    @Before
    public void setUp() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort(); // 9531 may be taken on a build machine
        }
        McpHttp.of(agent.app()).setPortForTests(port);
        // MainActivity binds to ToolService, which Android creates; that starts the tool, which
        // the engine needs before it can serve MCP. Robolectric creates nothing: the host does.
        host = new ToolHost(agent.app());
        activity = Robolectric.buildActivity(MainActivity.class).setup().get();
    }

    @After
    public void stopServer() {
        McpHttp.of(agent.app()).stop();
        host.close();
    }

    private Switch toggle() {
        return activity.findViewById(R.id.mcp_http);
    }

    private String text(int id) {
        return ((TextView) activity.findViewById(id)).getText().toString();
    }

    /** Flips the switch and waits until the background thread is done with it. */
    private void flip() throws InterruptedException {
        toggle().performClick();
        assertFalse("disabled while it works", toggle().isEnabled());
        host.idleUntil("the switch to settle", () -> toggle().isEnabled()); // runs McpServerService
    }

    /** POSTs body to the phone's server on loopback (which 0.0.0.0 includes); returns "status body". */
    private String post(String token, String body) throws IOException {
        return McpPost.post(port, token, body);
    }

    @Test
    public void offByDefault() throws IOException {
        assertEquals("the screen that shows the token is kept out of screenshots and recents",
                WindowManager.LayoutParams.FLAG_SECURE, activity.getWindow().getAttributes().flags & WindowManager.LayoutParams.FLAG_SECURE);
        assertFalse(toggle().isChecked());
        assertEquals("Off. Turn it on to let an MCP client on your computer use this phone's tools over USB (mobilemcp adb connect). A new token is made each time.",
                text(R.id.mcp_http_status));
        assertEquals("", text(R.id.mcp_http_token));
        assertEquals(View.GONE, activity.findViewById(R.id.copy_token).getVisibility());
        assertNull(McpHttp.of(agent.app()).token());
        try {
            post("anything", LIST);
            fail("something listens before the switch is on");
        } catch (ConnectException expected) {
            // nothing listens
        }
    }

    @Test
    public void on_servesWithTheShownToken_andOff_stops() throws Exception {
        flip();
        assertTrue(toggle().isChecked());
        String token = text(R.id.mcp_http_token);
        assertTrue("32 random bytes, Base64URL: " + token, token.matches("[A-Za-z0-9_-]{43}"));
        assertTrue(text(R.id.mcp_http_status), text(R.id.mcp_http_status).startsWith("Serving at:\n")
                && text(R.id.mcp_http_status).contains(":" + port + "/mcp")
                && text(R.id.mcp_http_status).endsWith("\nClients must send the header Authorization: Bearer followed by this token:"));

        McpServerService server = host.server();
        assertNotNull("the switch starts McpServerService", server);
        assertEquals(McpServerService.NOTIFICATION_ID, shadowOf(server).getLastForegroundNotificationId());

        String listed = post(token, LIST);
        assertTrue(listed, listed.startsWith("200 {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"{\\\"count\\\":2,"));
        assertEquals("401", post(null, LIST).substring(0, 3));
        assertEquals("401", post("not-the-token", LIST).substring(0, 3));

        // The token is the consent: no per-app decision is asked for, and the SMS goes.
        CompletableFuture<String> send = CompletableFuture.supplyAsync(() -> {
            try {
                return post(token, SEND);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        phone.awaitSend(14).getSentIntents().get(0).send(agent.app(), Activity.RESULT_OK, null);
        WireRule.idleUntil("the HTTP reply", send::isDone); // the sent result arrives on the main thread
        assertEquals("200 {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"SMS sent to +36201234567\"}],"
                + "\"structuredContent\":{\"to_phone_number\":\"+36201234567\",\"subscription_id\":14,\"encoding\":\"gsm7\",\"segments\":1}}}",
                send.get(WireRule.WAIT_MILLIS, TimeUnit.MILLISECONDS));
        assertEquals("[]", EngineAccess.bridge(agent.app()).callersJSON());

        activity.findViewById(R.id.copy_token).performClick();
        ClipData clip = activity.getSystemService(ClipboardManager.class).getPrimaryClip();
        assertEquals(token, clip.getItemAt(0).getText().toString());
        assertTrue("the token is marked sensitive", clip.getDescription().getExtras().getBoolean(ClipDescription.EXTRA_IS_SENSITIVE));
        assertEquals("android.content.extra.IS_SENSITIVE", ClipDescription.EXTRA_IS_SENSITIVE); // the key before API 33 too

        flip();
        assertFalse(toggle().isChecked());
        assertEquals("", text(R.id.mcp_http_token));
        assertNull(McpHttp.of(agent.app()).token());
        assertNull("off stops McpServerService", host.server());
        assertTrue(shadowOf(server).isStoppedBySelf());
        assertTrue("the notification goes with it", shadowOf(server).isForegroundStopped());
        try {
            post(token, LIST);
            fail("the server still answers after the switch went off");
        } catch (ConnectException expected) {
            // stopped
        }
    }

    @Test
    public void eachStartMakesANewToken() throws Exception {
        flip();
        String first = text(R.id.mcp_http_token);
        flip();
        flip();
        String second = text(R.id.mcp_http_token);
        assertFalse(first.equals(second));
        assertEquals("401", post(first, LIST).substring(0, 3));
        assertEquals("200", post(second, LIST).substring(0, 3));
    }

    @Test
    public void aPortInUse_turnsTheSwitchBackOffAndSaysWhy() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("0.0.0.0", port));
            flip();
        }
        assertFalse(toggle().isChecked());
        assertEquals("Could not start: mcpserver: another program (on a phone, another app) holds 127.0.0.1:" + port
                + ", so the server did not start; stop it, or use another port: listen tcp 127.0.0.1:" + port
                + ": bind: address already in use", text(R.id.mcp_http_status));
        assertNull(McpHttp.of(agent.app()).token());
    }

    /**
     * Another app listens on [::1] at the port, where adb's forward may connect first: the server
     * does not start beside it, and the screen says that another app holds the port.
     */
    @Test
    public void aPortHeldOnTheIPv6Loopback_turnsTheSwitchBackOffAndSaysWhy() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("::1", port));
            flip();
        }
        assertFalse(toggle().isChecked());
        assertEquals("Could not start: mcpserver: another program (on a phone, another app) holds [::1]:" + port
                + ", so the server did not start; stop it, or use another port: listen tcp [::1]:" + port
                + ": bind: address already in use", text(R.id.mcp_http_status));
        assertNull(McpHttp.of(agent.app()).token());
    }

    /**
     * Stopping waits for calls in flight (up to 10 s), but not with McpHttp's lock held: the
     * screen, resumed meanwhile, reads the server's state on the main thread and must not wait
     * (an ANR). Before the fix, token() blocked until the stop was over.
     */
    @Test
    public void stopWaitsForACallInFlight_withoutBlockingTheScreen() throws Exception {
        flip();
        String token = text(R.id.mcp_http_token);
        CompletableFuture<String> send = CompletableFuture.supplyAsync(() -> {
            try {
                return post(token, SEND);
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        ShadowSmsManager.TextMultipartParams sent = phone.awaitSend(14); // the call waits for its sent result
        McpHttp mcp = McpHttp.of(agent.app());
        Future<?> stop = mcp.thread.submit(mcp::stop);
        CompletableFuture<String> read = CompletableFuture.supplyAsync(() -> {
            String t;
            while ((t = mcp.token()) != null) {
                Thread.yield(); // until the stop has begun
            }
            return String.valueOf(t);
        });
        assertEquals("null", read.get(WireRule.WAIT_MILLIS, TimeUnit.MILLISECONDS));
        assertFalse("the stop still waits for the call in flight", stop.isDone());
        activity.onResume(); // the screen, shown again meanwhile
        assertFalse(toggle().isChecked());

        sent.getSentIntents().get(0).send(agent.app(), Activity.RESULT_OK, null);
        WireRule.idleUntil("the HTTP reply", send::isDone);
        assertTrue(send.get(), send.get().startsWith("200 {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"SMS sent to +36201234567\"}]"));
        stop.get(WireRule.WAIT_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** The notification's Stop stops the server and the service, and the screen follows. */
    @Test
    public void theNotificationsStop_stopsTheServerAndTheService() throws Exception {
        flip();
        String token = text(R.id.mcp_http_token);
        McpServerService server = host.server();
        Notification notification = shadowOf(server).getLastForegroundNotification();
        assertEquals(1, notification.actions.length);
        assertEquals("Stop", notification.actions[0].title.toString());

        notification.actions[0].actionIntent.send();
        host.idleUntil("the server to stop", () -> host.server() == null && !toggle().isChecked());
        assertTrue(shadowOf(server).isStoppedBySelf());
        assertNull(McpHttp.of(agent.app()).token());
        assertFalse(toggle().isChecked());
        try {
            post(token, LIST);
            fail("the server still answers after Stop");
        } catch (ConnectException expected) {
            // stopped
        }
    }

    /**
     * Nothing is reachable from the network unless the user chose it: by default the server binds
     * the loopback; ticking the local network makes it bind every interface at its next start, and
     * the choice is kept.
     */
    @Test
    public void theLoopbackUnlessTheUserTicksTheLocalNetwork() throws Exception {
        McpHttp mcp = McpHttp.of(agent.app());
        CheckBox lan = activity.findViewById(R.id.mcp_lan);
        assertFalse(lan.isChecked());
        assertEquals(java.util.List.of("http://127.0.0.1:" + port + "/mcp"), mcp.urls());
        flip();
        assertEquals("http://127.0.0.1:" + port + "/mcp", Smsapp.serverFor(EngineAccess.bridge(agent.app())).servingURL());
        assertFalse("the choice waits for the server to stop", lan.isEnabled());
        String token = text(R.id.mcp_http_token);
        assertEquals("401", post(null, LIST).substring(0, 3)); // the token is required on the loopback too
        assertEquals("200", post(token, LIST).substring(0, 3));
        flip();

        assertTrue(lan.isEnabled());
        lan.performClick();
        assertTrue(mcp.lan());
        assertTrue("kept", agent.app().getSharedPreferences(Gateway.PREFS, 0).getBoolean(McpHttp.PREF_LAN, false));
        flip();
        assertEquals("http://0.0.0.0:" + port + "/mcp", Smsapp.serverFor(EngineAccess.bridge(agent.app())).servingURL());
        assertEquals("200", post(text(R.id.mcp_http_token), LIST).substring(0, 3));
    }
}

package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import android.app.Activity;
import android.content.ClipData;
import android.content.ClipDescription;
import android.content.ClipboardManager;
import android.view.View;
import android.view.WindowManager;
import android.widget.Switch;
import android.widget.TextView;

import io.github.mobilemcp.sdk.testing.McpTestRunner;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;

/**
 * MainActivity's MCP server switch (docs/mcp.md, "On a device"): off by default; on, the engine's
 * real HTTP server listens on every interface with a fresh token shown on the screen, and answers
 * a real HTTP request with the token and refuses one without it (401); off, it stops listening.
 * Holding the token is the consent: an HTTP send needs no per-app decision.
 */
@RunWith(McpTestRunner.class)
public class McpHttpSwitchTest {
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_sms_subscriptions\",\"arguments\":{}}}";
    private static final String SEND = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"send_sms\","
            + "\"arguments\":{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}}}";

    @Rule public final FakeAgent agent = FakeAgent.withoutConsent(); // SIMs and permissions; no app consent

    private int port;
    private ToolHost host;
    private MainActivity activity;

    @Before
    public void setUp() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort(); // 9531 may be taken on a build machine
        }
        McpHttp.of(agent.app).setAddressForTests("0.0.0.0:" + port);
        // MainActivity binds to ToolService, which Android creates; that starts the tool, which
        // the engine needs before it can serve MCP. Robolectric creates nothing: the host does.
        host = new ToolHost(agent.app);
        activity = Robolectric.buildActivity(MainActivity.class).setup().get();
    }

    @After
    public void stopServer() {
        McpHttp.of(agent.app).stop();
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
        FakeAgent.idleMainUntil("the switch to settle", () -> toggle().isEnabled());
    }

    /** POSTs body to the phone's server on loopback, which 0.0.0.0 includes; returns "status body". */
    private String post(String token, String body) throws IOException {
        HttpURLConnection http = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/mcp").openConnection();
        http.setRequestMethod("POST");
        http.setDoOutput(true);
        http.setRequestProperty("Content-Type", "application/json");
        http.setRequestProperty("Accept", "application/json, text/event-stream");
        if (token != null) {
            http.setRequestProperty("Authorization", "Bearer " + token);
        }
        try (OutputStream out = http.getOutputStream()) {
            out.write(body.getBytes(StandardCharsets.UTF_8));
        }
        int status = http.getResponseCode();
        InputStream in = status < 400 ? http.getInputStream() : http.getErrorStream();
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        if (in != null) {
            in.transferTo(read);
            in.close();
        }
        return status + " " + read.toString(StandardCharsets.UTF_8).trim();
    }

    @Test
    public void offByDefault() throws IOException {
        assertEquals("the screen that shows the token is kept out of screenshots and recents",
                WindowManager.LayoutParams.FLAG_SECURE, activity.getWindow().getAttributes().flags & WindowManager.LayoutParams.FLAG_SECURE);
        assertFalse(toggle().isChecked());
        assertEquals("Off. Turn it on to let an MCP client on your Wi-Fi use this phone's tools. A new token is made each time.",
                text(R.id.mcp_http_status));
        assertEquals("", text(R.id.mcp_http_token));
        assertEquals(View.GONE, activity.findViewById(R.id.copy_token).getVisibility());
        assertNull(McpHttp.of(agent.app).token());
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
        agent.awaitSend(14).getSentIntents().get(0).send(agent.app, Activity.RESULT_OK, null);
        assertEquals("200 {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"SMS sent to +36201234567\"}],"
                + "\"structuredContent\":{\"to_phone_number\":\"+36201234567\",\"subscription_id\":14,\"encoding\":\"gsm7\",\"segments\":1}}}",
                send.get(FakeAgent.WAIT_MILLIS, TimeUnit.MILLISECONDS));
        assertEquals("[]", agent.engine().callersJSON());

        activity.findViewById(R.id.copy_token).performClick();
        ClipData clip = activity.getSystemService(ClipboardManager.class).getPrimaryClip();
        assertEquals(token, clip.getItemAt(0).getText().toString());
        assertTrue("the token is marked sensitive", clip.getDescription().getExtras().getBoolean(ClipDescription.EXTRA_IS_SENSITIVE));
        assertEquals("android.content.extra.IS_SENSITIVE", ClipDescription.EXTRA_IS_SENSITIVE); // the key before API 33 too

        flip();
        assertFalse(toggle().isChecked());
        assertEquals("", text(R.id.mcp_http_token));
        assertNull(McpHttp.of(agent.app).token());
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
        assertEquals("Could not start: mcpserver: listen tcp 0.0.0.0:" + port + ": bind: address already in use",
                text(R.id.mcp_http_status));
        assertNull(McpHttp.of(agent.app).token());
    }
}

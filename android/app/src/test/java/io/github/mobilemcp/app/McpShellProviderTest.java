package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.content.pm.PackageManager;
import android.content.pm.ProviderInfo;
import android.os.Bundle;
import android.os.Process;

import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.shadows.ShadowBinder;

/**
 * The shell-only MCP provider that 'mobilemcp adb stdio' asks for the server's state and token
 * (docs/security.md, "Someone with adb"): adb's shell gets what it needs, and the token works on
 * the real server; another app, and the shell's uid without DUMP, are refused; it never starts the
 * server.
 */
@RunWith(McpTestRunner.class)
public class McpShellProviderTest {
    private static final String LIST = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_sms_subscriptions\",\"arguments\":{}}}";

    @Rule public final WireRule agent = new WireRule(ToolService.class).withoutConsent();

    private final Phone phone = new Phone();

    private final ExecutorService binder = Executors.newSingleThreadExecutor();
    private int port;
    private ToolHost host;

    @Before
    public void setUp() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        McpHttp.of(agent.app()).setPortForTests(port);
        host = new ToolHost(agent.app());
    }

    @After
    public void tearDown() throws Exception {
        binder.shutdownNow();
        ShadowBinder.reset();
        // On McpHttp's thread, as the app stops it: after the start a test queued has ended, which
        // sets the token before it starts the gateway (a stop between the two found no receiver).
        McpHttp mcp = McpHttp.of(agent.app());
        mcp.thread.submit(mcp::stop).get(WireRule.WAIT_MILLIS, TimeUnit.MILLISECONDS);
        host.close();
    }

    /** Calls the provider from uid, on another thread, as a Binder call from another process arrives. */
    private Bundle callAs(int uid, String method) throws Exception {
        McpShellProvider provider = Robolectric.buildContentProvider(McpShellProvider.class)
                .create(agent.app().getPackageName() + ".mobilemcp.mcp").get();
        try {
            return binder.submit(() -> {
                ShadowBinder.setCallingPid(Process.myPid() + 1); // checkCallingPermission looks at it
                ShadowBinder.setCallingUid(uid);
                return provider.call(method, null, null);
            }).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw (Exception) e.getCause();
        }
    }

    private String server(int uid) throws Exception {
        return callAs(uid, McpShellProvider.METHOD_SERVER).getString(McpShellProvider.EXTRA_SERVER);
    }

    @Test
    public void theShell_learnsTheServerIsOff_andNothingStartsIt() throws Exception {
        shadowOf(agent.app()).grantPermissions(Manifest.permission.DUMP);
        assertEquals("{\"on\":false,\"port\":" + port + "}", server(2000));
        assertEquals("{\"on\":false,\"port\":" + port + "}", server(0)); // root, where adbd runs as root
        assertEquals(null, McpHttp.of(agent.app()).token());
        assertEquals(null, host.server());
    }

    @Test
    public void theShell_getsThePortAndTheToken_thatTheServerTakes() throws Exception {
        McpServerService.start(agent.app());
        host.idleUntil("the server to start", () -> McpHttp.of(agent.app()).token() != null);
        String token = McpHttp.of(agent.app()).token();
        shadowOf(agent.app()).grantPermissions(Manifest.permission.DUMP);
        assertEquals("{\"on\":true,\"port\":" + port + ",\"token\":\"" + token + "\"}", server(2000));
        String listed = McpPost.post(port, token, LIST);
        assertTrue(listed, listed.startsWith("200 {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":"));
    }

    @Test
    public void anotherApp_isRefused_evenHoldingDump() throws Exception {
        McpServerService.start(agent.app());
        host.idleUntil("the server to start", () -> McpHttp.of(agent.app()).token() != null);
        shadowOf(agent.app()).grantPermissions(Manifest.permission.DUMP);
        assertRefused(10_123);
    }

    @Test
    public void theShellsUid_withoutDump_isRefused() throws Exception {
        McpServerService.start(agent.app());
        host.idleUntil("the server to start", () -> McpHttp.of(agent.app()).token() != null);
        assertRefused(2000);
    }

    private void assertRefused(int uid) throws Exception {
        try {
            String answer = server(uid);
            fail("uid " + uid + " got " + answer);
        } catch (SecurityException expected) {
            assertEquals("the MCP server's token is for adb's shell only (uid 2000, holding android.permission.DUMP), not uid " + uid,
                    expected.getMessage());
        }
    }

    @Test
    public void theManifest_requiresDump_andExportsItForTheShell() throws Exception {
        ProviderInfo info = agent.app().getPackageManager().getProviderInfo(
                new android.content.ComponentName(agent.app(), McpShellProvider.class), PackageManager.GET_META_DATA);
        assertEquals(Manifest.permission.DUMP, info.readPermission);
        assertEquals(Manifest.permission.DUMP, info.writePermission);
        assertTrue(info.exported);
        assertEquals(agent.app().getPackageName() + ".mobilemcp.mcp", info.authority);
    }
}

package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Notification;
import android.app.NotificationChannel;
import android.app.NotificationManager;
import android.content.ComponentName;
import android.content.Intent;
import android.content.pm.ServiceInfo;
import android.os.Build;

import io.github.mobilemcp.harness.ForegroundRules;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;

import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.annotation.Config;
import org.robolectric.shadow.api.Shadow;

/**
 * McpServerService answers the switch's startForegroundService with an ongoing notification and
 * the foreground type each API level accepts, on every level of robolectric.sdks;
 * {@link ForegroundRules} plays Android's checks. The server itself is McpHttpSwitchTest's.
 */
@RunWith(McpTestRunner.class)
@Config(sdk = Config.ALL_SDKS, shadows = ForegroundRules.class) // every level: Foreground branches on SDK_INT
public class McpServerServiceTest {
    @Rule public final WireRule agent = new WireRule(ToolService.class).withoutConsent();
    private final Phone phone = new Phone();

    private ToolHost host;

    @Before
    public void setUp() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            McpHttp.of(agent.app()).setPortForTests(free.getLocalPort());
        }
        host = new ToolHost(agent.app());
        if (Build.VERSION.SDK_INT >= 26) { // start() used startForegroundService: Android now waits
            host.onServerCreated = server -> ((ForegroundRules) Shadow.extract(server)).startedAsForegroundService();
        }
    }

    @After
    public void tearDown() {
        host.close();
        McpHttp.of(agent.app()).stop();
    }

    @Test
    public void start_isAForegroundServiceOfThisLevelsType_withStop() throws Exception {
        McpServerService.start(agent.app());
        host.pump();
        McpServerService server = host.server();
        assertNotNull(server);
        ForegroundRules rules = Shadow.extract(server);
        assertFalse("Android still waits for startForeground", rules.waiting());
        assertNull(rules.crash());
        assertEquals(McpServerService.NOTIFICATION_ID, rules.getLastForegroundNotificationId());
        if (Build.VERSION.SDK_INT >= 34) {
            assertEquals(ServiceInfo.FOREGROUND_SERVICE_TYPE_SPECIAL_USE, server.getForegroundServiceType());
        } else if (Build.VERSION.SDK_INT >= 29) {
            assertEquals("none: specialUse is not a type before 34", 0, server.getForegroundServiceType());
        }
        if (Build.VERSION.SDK_INT >= 29) {
            assertEquals("declared specialUse", ServiceInfo.FOREGROUND_SERVICE_TYPE_SPECIAL_USE,
                    declared().getForegroundServiceType());
        }
        assertFalse("not exported", declared().exported);

        Notification starting = rules.getLastForegroundNotification();
        assertEquals("Serving MCP", starting.extras.getCharSequence(Notification.EXTRA_TITLE).toString());
        assertEquals("Starting…", starting.extras.getCharSequence(Notification.EXTRA_TEXT).toString());
        assertTrue("ongoing", (starting.flags & Notification.FLAG_ONGOING_EVENT) != 0);
        assertEquals(Notification.CATEGORY_SERVICE, starting.category);
        assertEquals(1, starting.actions.length);
        assertEquals("Stop", starting.actions[0].title.toString());
        Intent stop = shadowOf(starting.actions[0].actionIntent).getSavedIntent();
        assertEquals(new ComponentName(agent.app(), McpServerService.class), stop.getComponent());
        assertEquals(McpServerService.ACTION_STOP, stop.getAction());
        assertTrue(shadowOf(starting.actions[0].actionIntent).isImmutable());
        if (Build.VERSION.SDK_INT >= 26) {
            assertEquals(McpServerService.CHANNEL_ID, starting.getChannelId());
            NotificationChannel channel = agent.app().getSystemService(NotificationManager.class)
                    .getNotificationChannel(McpServerService.CHANNEL_ID);
            assertEquals("MCP server", channel.getName().toString());
            assertEquals(NotificationManager.IMPORTANCE_LOW, channel.getImportance());
        }

        // Once the server listens, the notification says where.
        String port = McpHttp.of(agent.app()).port();
        host.idleUntil("the server to start", () -> McpHttp.of(agent.app()).token() != null);
        host.idleUntil("the notification to show the address", () -> text(server).contains(":" + port + "/mcp")
                || text(server).contains("port " + port));

        starting.actions[0].actionIntent.send();
        host.idleUntil("the service to stop", () -> host.server() == null && McpHttp.of(agent.app()).token() == null);
        assertNull(rules.crash());
        assertEquals(List.of(), shadowOf(agent.app().getSystemService(NotificationManager.class)).getAllNotifications());
    }

    /** The text of server's notification as the notification manager has it now. */
    private String text(McpServerService server) {
        Notification n = shadowOf(agent.app().getSystemService(NotificationManager.class)).getNotification(McpServerService.NOTIFICATION_ID);
        CharSequence text = n == null ? null : n.extras.getCharSequence(Notification.EXTRA_TEXT);
        return text == null ? "" : text.toString();
    }

    private ServiceInfo declared() throws Exception {
        return agent.app().getPackageManager().getServiceInfo(new ComponentName(agent.app(), McpServerService.class), 0);
    }
}

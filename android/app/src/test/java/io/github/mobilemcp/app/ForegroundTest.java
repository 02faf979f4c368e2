package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.ForegroundServiceStartNotAllowedException;
import android.app.Notification;
import android.app.NotificationChannel;
import android.app.NotificationManager;
import android.content.pm.ServiceInfo;
import android.util.Log;

import io.github.mobilemcp.sdk.testing.McpTestRunner;

import java.util.List;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.android.controller.ServiceController;
import org.robolectric.shadows.ShadowLog;
import org.robolectric.shadows.ShadowService;

/** ToolService answers startForegroundService at once, with the special-use type on API 34. */
@RunWith(McpTestRunner.class)
public class ForegroundTest {
    @Rule public final FakeAgent agent = new FakeAgent();

    @Test
    public void startCommand_callsStartForegroundBeforeTheEngineRuns() throws Exception {
        agent.setSims(FakeAgent.SIM_14);
        ServiceController<? extends ToolService> service = agent.start(FakeAgent.specRequest("fg-1", "get_sms_subscriptions", "{}"));

        // Checked as soon as onStartCommand has returned, before the main looper ran the reply.
        ShadowService shadow = shadowOf(service.get());
        assertEquals(FakeAgent.FOREGROUND_NOTIFICATION_ID, shadow.getLastForegroundNotificationId());
        assertEquals(ServiceInfo.FOREGROUND_SERVICE_TYPE_SPECIAL_USE, service.get().getForegroundServiceType());
        Notification notification = shadow.getLastForegroundNotification();
        assertEquals(FakeAgent.FOREGROUND_CHANNEL, notification.getChannelId());
        assertEquals("Running a request from an assistant",
                notification.extras.getCharSequence(Notification.EXTRA_TITLE).toString());
        assertEquals(Notification.CATEGORY_SERVICE, notification.category);

        NotificationChannel channel = agent.app.getSystemService(NotificationManager.class)
                .getNotificationChannel(FakeAgent.FOREGROUND_CHANNEL);
        assertEquals("Assistant requests", channel.getName().toString());
        assertEquals(NotificationManager.IMPORTANCE_LOW, channel.getImportance());

        assertTrue(agent.awaitSpecReply().contains("\"status\":\"success\""));
        agent.stop();
        assertTrue("the notification goes with the service", shadow.isForegroundStopped());
        assertEquals(List.of(), shadowOf(agent.app.getSystemService(NotificationManager.class)).getAllNotifications());
    }

    @Test
    public void startForegroundRefused_isLoggedAndTheRequestStillRuns() throws Exception {
        agent.setSims(FakeAgent.SIM_14);
        ServiceController<ToolService> service = Robolectric.buildService(ToolService.class,
                agent.specIntent(FakeAgent.specRequest("fg-2", "get_sms_subscriptions", "{}"))).create();
        // What Android 12+ throws when the start came from the background without an exemption.
        shadowOf(service.get()).setThrowInStartForeground(
                new ForegroundServiceStartNotAllowedException("not allowed from the background"));
        service.startCommand(0, 1);

        assertTrue(agent.awaitSpecReply().contains("\"status\":\"success\""));
        List<ShadowLog.LogItem> logs = ShadowLog.getLogsForTag(ToolService.LOG_TAG);
        assertEquals(1, logs.size());
        assertEquals(Log.ERROR, logs.get(0).type);
        assertEquals("startForeground failed", logs.get(0).msg);
        service.destroy();
    }
}

package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.ForegroundServiceStartNotAllowedException;
import android.app.Notification;
import android.app.NotificationChannel;
import android.app.NotificationManager;
import android.content.ComponentName;
import android.content.pm.PackageManager;
import android.content.pm.ServiceInfo;
import android.os.Build;
import android.util.Log;

import io.github.mobilemcp.harness.ForegroundRules;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;
import org.robolectric.android.controller.ServiceController;

import java.util.List;
import java.util.stream.Collectors;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.annotation.Config;
import org.robolectric.shadow.api.Shadow;
import org.robolectric.shadows.ShadowLog;
import org.robolectric.util.ReflectionHelpers;

/**
 * The tool service answers startForegroundService at once, with the foreground service type each API
 * level needs, and never stops while Android still waits for startForeground, which would crash the
 * app. {@link ForegroundRules} plays Android's checks.
 */
@RunWith(McpTestRunner.class)
@Config(sdk = Config.ALL_SDKS, shadows = ForegroundRules.class) // every level of robolectric.sdks
public class ForegroundTest {
    private static final String LIST = WireRule.request("fg-2", "inspect", "{\"text\":\"hi\"}");

    @Rule public final WireRule agent = new WireRule(TestToolService.class);

    /** Creates TestToolService with request as startForegroundService does (Android now waits), and starts it. */
    private ServiceController<TestToolService> startAsForegroundService(String request, RuntimeException refusal) {
        agent.settings().allow(agent.app().getPackageName());
        ServiceController<TestToolService> service = Robolectric.buildService(TestToolService.class, agent.intentFor(request)).create();
        if (Build.VERSION.SDK_INT >= 26) {
            rules(service).startedAsForegroundService();
        }
        if (refusal != null) {
            rules(service).refuseAfterWaiting(refusal);
        }
        return service.startCommand(0, 1);
    }

    private static ForegroundRules rules(ServiceController<TestToolService> service) {
        return Shadow.extract(service.get());
    }

    /** Waits until the service stopped itself, after its reply. */
    private void awaitStopped(ServiceController<TestToolService> service) throws InterruptedException {
        WireRule.idleUntil("the service to stop itself", () -> rules(service).isStoppedBySelf());
    }

    private static List<String> errors() {
        return ShadowLog.getLogsForTag(McpToolService.LOG_TAG).stream()
                .filter(l -> l.type == Log.ERROR).map(l -> l.msg).collect(Collectors.toList());
    }

    @Test
    public void startCommand_startsForegroundWithThisLevelsType_beforeTheEngineRuns() throws Exception {
        ServiceController<TestToolService> service = startAsForegroundService(
                WireRule.request("fg-1", "inspect", "{\"text\":\"hi\"}"), null);

        // Checked as soon as onStartCommand has returned, before the engine has even sent.
        ForegroundRules rules = rules(service);
        if (Build.VERSION.SDK_INT < 26) {
            // No startForegroundService before Android 8, so nothing waits and nothing is shown.
            assertEquals(0, rules.attempts());
        } else {
            assertFalse("Android still waits for startForeground", rules.waiting());
            assertEquals(1, rules.attempts());
            assertEquals(TestTool.FOREGROUND_NOTIFICATION_ID, rules.getLastForegroundNotificationId());
            Notification notification = rules.getLastForegroundNotification();
            assertEquals(TestTool.FOREGROUND_CHANNEL, notification.getChannelId());
            assertEquals("Running a request from an assistant",
                    notification.extras.getCharSequence(Notification.EXTRA_TITLE).toString());
            assertEquals(Notification.CATEGORY_SERVICE, notification.category);
            NotificationChannel channel = agent.app().getSystemService(NotificationManager.class)
                    .getNotificationChannel(TestTool.FOREGROUND_CHANNEL);
            assertEquals("Assistant requests", channel.getName().toString());
            assertEquals(NotificationManager.IMPORTANCE_LOW, channel.getImportance());
        }
        if (Build.VERSION.SDK_INT >= 34) {
            assertEquals(ServiceInfo.FOREGROUND_SERVICE_TYPE_SPECIAL_USE, service.get().getForegroundServiceType());
        } else if (Build.VERSION.SDK_INT >= 29) {
            assertEquals("none: specialUse is not a type before 34", 0, service.get().getForegroundServiceType());
        }

        // An Intent's caller is only claimed: the handler is told of none.
        assertEquals(TestTool.inspectedReply("fg-1", "hi", ""), agent.awaitReplyJson());
        awaitStopped(service);
        assertNull(rules.crash());
        assertEquals(List.of(), errors());
        service.destroy();
        assertEquals(List.of(), shadowOf(agent.app().getSystemService(NotificationManager.class)).getAllNotifications());
    }

    /**
     * A manifest whose foregroundServiceType does not include specialUse (a device that did not
     * resolve the value, or a developer who declared another type): Android 14 refuses
     * startForeground while it still waits, so the service tries again with the manifest's own
     * types, which end the wait; the request runs, and the service stops without crashing the app.
     * Before this fix the refusal was logged and the later stopSelf crashed the app.
     */
    @Test
    public void manifestWithoutSpecialUse_triesTheManifestsTypes_andTheAppIsNotCrashed() throws Exception {
        assumeTrue("the type that can mismatch is passed from 34 on", Build.VERSION.SDK_INT >= 34);
        declareForegroundServiceType(0);
        ServiceController<TestToolService> service = startAsForegroundService(LIST, null);

        assertEquals("specialUse, then the manifest's types", 2, rules(service).attempts());
        assertFalse(rules(service).waiting());
        assertEquals(TestTool.inspectedReply("fg-2", "hi", ""), agent.awaitReplyJson());
        awaitStopped(service);
        assertNull(rules(service).crash());
        List<String> errors = errors();
        assertEquals(errors.toString(), 2, errors.size());
        assertEquals("io.github.mobilemcp.sdktests.TestToolService: startForeground refused the type: foregroundServiceType 0x40000000"
                + " is not a subset of foregroundServiceType attribute 0x00000000 in service element of manifest file;"
                + " declare android:foregroundServiceType=\"specialUse\" on the service. Trying again with the types the"
                + " manifest declares.", errors.get(0));
        assertTrue(errors.get(1), errors.get(1).startsWith("io.github.mobilemcp.sdktests.TestToolService: startForeground failed;"));
        service.destroy();
    }

    /**
     * Android 12+ refuses the foreground (ForegroundServiceStartNotAllowedException) only after it
     * stopped waiting: the refusal is logged, the request still runs, and the service stops as
     * usual, without crashing the app.
     */
    @Test
    public void refusedAfterAndroidStoppedWaiting_isLogged_andTheRequestRunsAndStops() throws Exception {
        assumeTrue("ForegroundServiceStartNotAllowedException is Android 12's", Build.VERSION.SDK_INT >= 31);
        ServiceController<TestToolService> service = startAsForegroundService(LIST,
                new ForegroundServiceStartNotAllowedException("not allowed from the background"));

        assertEquals(TestTool.inspectedReply("fg-2", "hi", ""), agent.awaitReplyJson());
        awaitStopped(service);
        assertNull(rules(service).crash());
        assertEquals(1, rules(service).attempts());
        List<String> errors = errors();
        assertEquals(errors.toString(), 1, errors.size());
        assertTrue(errors.get(0), errors.get(0).startsWith("io.github.mobilemcp.sdktests.TestToolService: startForeground failed;"));
        service.destroy();
    }

    /** Makes the package manager report type as TestToolService's declared foregroundServiceType. */
    private void declareForegroundServiceType(int type) throws PackageManager.NameNotFoundException {
        PackageManager pm = agent.app().getPackageManager();
        ServiceInfo info = pm.getServiceInfo(new ComponentName(agent.app(), TestToolService.class), PackageManager.GET_META_DATA);
        ReflectionHelpers.setField(info, "mForegroundServiceType", type);
        shadowOf(pm).addOrUpdateService(info);
        assertEquals(type, pm.getServiceInfo(new ComponentName(agent.app(), TestToolService.class), 0).getForegroundServiceType());
    }
}

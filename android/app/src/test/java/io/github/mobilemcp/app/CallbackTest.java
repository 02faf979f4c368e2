package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.PendingIntent;
import android.content.Intent;
import android.content.pm.ApplicationInfo;
import android.os.Build;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.testing.McpTestRunner;

import java.util.List;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLog;

/**
 * Where a reply goes when the callback cannot take it, or when there is none: logcat, under
 * ToolService.LOG_TAG, and never a crash.
 */
@RunWith(McpTestRunner.class)
@Config(sdk = Config.ALL_SDKS) // every level of robolectric.sdks: the code under test branches on SDK_INT
public class CallbackTest {
    private static final String SUBS_REPLY = "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"adb-1\","
            + "\"capability\":{\"id\":\"get_sms_subscriptions\",\"output\":["
            + "{\"name\":\"count\",\"type\":\"integer\",\"value\":1},"
            + "{\"name\":\"subscriptions\",\"type\":\"array\",\"value\":["
            + "{\"subscription_id\":14,\"sim_slot_index\":0,\"carrier_name\":\"Vodafone UK\",\"display_name\":\"Vodafone UK\"}]}]},"
            + "\"status\":\"success\",\"message\":\"{\\\"count\\\":1,\\\"subscriptions\\\":["
            + "{\\\"subscription_id\\\":14,\\\"sim_slot_index\\\":0,\\\"carrier_name\\\":\\\"Vodafone UK\\\",\\\"display_name\\\":\\\"Vodafone UK\\\"}]}\"}}}";

    /** Go's refusal of a request without a callback in a release build without the switch. */
    static final String NO_CALLBACK_REFUSAL = "requests without a callback are accepted only by debuggable builds"
            + " or with the developer switch on; send a mutable PendingIntent in the mobile-mcp-callback extra";

    @Rule public final FakeAgent agent = new FakeAgent();

    private void start(PendingIntent callback) {
        agent.start(ToolService.class, new Intent(Intentbridge.ServiceAction)
                .setClassName(agent.app, ToolService.class.getName())
                .putExtra(Intentbridge.ExtraRequest, FakeAgent.specRequest("cb-1", "get_sms_subscriptions", "{}"))
                .putExtra(Intentbridge.ExtraCallback, callback));
    }

    /** As adb sends it: `am start-foreground-service -n ... --es mobile-mcp-request '<json>'`. */
    private void startWithoutCallback() {
        agent.start(ToolService.class, new Intent()
                .setClassName(agent.app, ToolService.class.getName())
                .putExtra(Intentbridge.ExtraRequest, FakeAgent.specRequest("adb-1", "get_sms_subscriptions", "{}")));
    }

    private void awaitStop() throws InterruptedException {
        FakeAgent.idleMainUntil("the service to stop itself", () -> shadowOf(agent.service().get()).isStoppedBySelf());
    }

    private static ShadowLog.LogItem onlyLogLine() {
        List<ShadowLog.LogItem> logs = ShadowLog.getLogsForTag(ToolService.LOG_TAG);
        assertEquals("log lines under " + ToolService.LOG_TAG + ": " + logs, 1, logs.size());
        return logs.get(0);
    }

    @Test
    public void noCallback_debuggableBuild_logsTheReplyAsOneLineOfJson() throws Exception {
        agent.setSims(FakeAgent.SIM_14);
        agent.app.getApplicationInfo().flags |= ApplicationInfo.FLAG_DEBUGGABLE; // as a debug build
        startWithoutCallback();
        awaitStop();

        ShadowLog.LogItem line = onlyLogLine();
        assertEquals(Log.INFO, line.type);
        assertEquals("MobileMCP", line.tag); // adb.LogTag in the Go module
        assertEquals(SUBS_REPLY, line.msg);
        assertFalse(line.msg.contains("\n"));
        assertEquals(List.of(), agent.replies);
    }

    @Test
    public void noCallback_releaseBuild_isRefusedInLogcatAndNothingRuns() throws Exception {
        assertEquals(0, agent.app.getApplicationInfo().flags & ApplicationInfo.FLAG_DEBUGGABLE);
        agent.start(ToolService.class, new Intent()
                .setClassName(agent.app, ToolService.class.getName())
                .putExtra(Intentbridge.ExtraRequest, FakeAgent.specRequest("adb-2", "send_sms",
                        "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}")));
        awaitStop();

        // Go refuses it (the rule lives in the access package); the refusal is the reply, in logcat.
        // It changes something, so no build or switch would run it without a caller.
        ShadowLog.LogItem line = onlyLogLine();
        assertEquals(Log.INFO, line.type);
        assertEquals(FakeAgent.failureReply("adb-2", "send_sms", NoCallerNoChangeTest.NO_CALLER, "permission_denied"), line.msg);
        assertTrue(agent.nothingSent());
    }

    @Test
    public void noCallback_releaseBuildWithTheDeveloperSwitch_runs() throws Exception {
        agent.setSims(FakeAgent.SIM_14);
        agent.tool().setDeveloperSwitch(true);
        startWithoutCallback();
        awaitStop();

        assertEquals(SUBS_REPLY, onlyLogLine().msg);
        assertEquals(List.of(), agent.replies);
    }

    @Test
    public void immutableCallback_isLoggedNotCrashed() throws Exception {
        if (Build.VERSION.SDK_INT < 31) {
            // Android cannot tell an immutable PendingIntent before 12: it is sent, and Android
            // drops the fill-in, so the agent gets its broadcast without the reply. Nothing crashes.
            start(agent.callback(PendingIntent.FLAG_IMMUTABLE));
            awaitStop();
            assertEquals(List.of(), ShadowLog.getLogsForTag(ToolService.LOG_TAG));
            for (Intent delivered : agent.replies) {
                assertNull(delivered.getStringExtra(Intentbridge.ExtraResponse));
            }
            return;
        }
        assertDroppedAndLogged(agent.callback(PendingIntent.FLAG_IMMUTABLE),
                "its callback is immutable; create it with PendingIntent.FLAG_MUTABLE");
    }

    @Test
    public void cancelledCallback_isLoggedNotCrashed() throws Exception {
        PendingIntent cancelled = agent.callback(PendingIntent.FLAG_MUTABLE);
        cancelled.cancel();
        assertDroppedAndLogged(cancelled, "its callback was cancelled");
    }

    /**
     * Starts a request with callback and checks that the service stopped, that no reply arrived,
     * and that one ERROR line says which reply was lost and why, without its content (it may hold
     * phone numbers).
     */
    private void assertDroppedAndLogged(PendingIntent callback, String why) throws Exception {
        start(callback);
        awaitStop();

        ShadowLog.LogItem line = onlyLogLine();
        assertEquals(Log.ERROR, line.type);
        assertEquals("reply to request \"cb-1\" from io.github.mobilemcp.app (success) was not delivered: " + why,
                line.msg);
        assertEquals(List.of(), agent.replies);
    }

    @Test
    public void callbackOfTheWrongType_isTreatedAsNoCallback() throws Exception {
        agent.start(ToolService.class, new Intent()
                .setClassName(agent.app, ToolService.class.getName())
                .putExtra(Intentbridge.ExtraRequest, FakeAgent.specRequest("cb-2", "get_sms_subscriptions", "{}"))
                .putExtra(Intentbridge.ExtraCallback, "not a PendingIntent"));
        awaitStop();

        // No caller: refused in a release build, and answered in logcat.
        ShadowLog.LogItem line = onlyLogLine();
        assertEquals(Log.INFO, line.type);
        assertEquals(FakeAgent.failureReply("cb-2", "get_sms_subscriptions", NO_CALLBACK_REFUSAL, "permission_denied"), line.msg);
    }
}

package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.robolectric.Shadows.shadowOf;

import android.app.PendingIntent;
import android.content.Intent;
import android.content.pm.ApplicationInfo;
import android.os.Build;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.List;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLog;

/**
 * The Intent transport's callback: where a reply goes when the callback cannot take it, or when
 * there is none: logcat, under McpToolService.LOG_TAG, and never a crash.
 */
@RunWith(McpTestRunner.class)
@Config(sdk = Config.ALL_SDKS) // every level of robolectric.sdks: the code under test branches on SDK_INT
public class CallbackTest {
    /** The engine's refusal of a request without a callback in a release build without the switch. */
    static final String NO_CALLBACK_REFUSAL = "requests without a callback are accepted only by debuggable builds"
            + " or with the developer switch on; send a mutable PendingIntent in the mobile-mcp-callback extra";

    @Rule public final WireRule agent = new WireRule(TestToolService.class);

    private void start(PendingIntent callback) {
        agent.startService(agent.intentFor(WireRule.request("cb-1", "inspect", "{\"text\":\"hi\"}"))
                .putExtra(Intentbridge.ExtraCallback, callback));
    }

    /** As adb sends it: `am start-foreground-service -n ... --es mobile-mcp-request '<json>'`. */
    private void startWithoutCallback() {
        agent.startService(agent.intentWithoutCallback(WireRule.request("adb-1", "inspect", "{\"text\":\"hi\"}")));
    }

    private void awaitStop() throws InterruptedException {
        WireRule.idleUntil("the service to stop itself", () -> shadowOf(agent.service().get()).isStoppedBySelf());
    }

    private static ShadowLog.LogItem onlyLogLine() {
        List<ShadowLog.LogItem> logs = ShadowLog.getLogsForTag(McpToolService.LOG_TAG);
        assertEquals("log lines under " + McpToolService.LOG_TAG + ": " + logs, 1, logs.size());
        return logs.get(0);
    }

    @Test
    public void noCallback_debuggableBuild_logsTheReplyAsOneLineOfJson() throws Exception {
        agent.app().getApplicationInfo().flags |= ApplicationInfo.FLAG_DEBUGGABLE; // as a debug build
        startWithoutCallback();
        awaitStop();

        ShadowLog.LogItem line = onlyLogLine();
        assertEquals(Log.INFO, line.type);
        assertEquals("MobileMCP", line.tag); // adb.LogTag in the Go module
        assertEquals(TestTool.inspectedReply("adb-1", "hi", ""), line.msg);
        assertFalse(line.msg.contains("\n"));
        assertEquals(List.of(), agent.replies());
    }

    @Test
    public void noCallback_releaseBuild_isRefusedInLogcatAndNothingRuns() throws Exception {
        assertEquals(0, agent.app().getApplicationInfo().flags & ApplicationInfo.FLAG_DEBUGGABLE);
        agent.startService(agent.intentWithoutCallback(WireRule.request("adb-2", "record", "{\"text\":\"hi\"}")));
        awaitStop();

        // The engine refuses it; the refusal is the reply, in logcat. It changes something, so no
        // build or switch would run it without a caller.
        ShadowLog.LogItem line = onlyLogLine();
        assertEquals(Log.INFO, line.type);
        assertEquals(WireRule.failureReply("adb-2", "record", NoCallerNoChangeTest.NO_CALLER, "permission_denied"), line.msg);
        assertEquals(List.of(), TestTool.recorded());
    }

    @Test
    public void noCallback_releaseBuildWithTheDeveloperSwitch_runs() throws Exception {
        agent.settings().setDeveloperSwitchOn(true);
        startWithoutCallback();
        awaitStop();

        assertEquals(TestTool.inspectedReply("adb-1", "hi", ""), onlyLogLine().msg);
        assertEquals(List.of(), agent.replies());
    }

    @Test
    public void immutableCallback_isLoggedNotCrashed() throws Exception {
        if (Build.VERSION.SDK_INT < 31) {
            // Android cannot tell an immutable PendingIntent before 12: it is sent, and Android
            // drops the fill-in, so the agent gets its broadcast without the reply. Nothing crashes.
            start(agent.callback(PendingIntent.FLAG_IMMUTABLE));
            awaitStop();
            assertEquals(List.of(), ShadowLog.getLogsForTag(McpToolService.LOG_TAG));
            for (Intent delivered : agent.replies()) {
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
     * personal data).
     */
    private void assertDroppedAndLogged(PendingIntent callback, String why) throws Exception {
        start(callback);
        awaitStop();

        ShadowLog.LogItem line = onlyLogLine();
        assertEquals(Log.ERROR, line.type);
        assertEquals("reply to request \"cb-1\" from io.github.mobilemcp.sdktests (success) was not delivered: " + why,
                line.msg);
        assertEquals(List.of(), agent.replies());
    }

    @Test
    public void callbackOfTheWrongType_isTreatedAsNoCallback() throws Exception {
        agent.startService(agent.intentWithoutCallback(WireRule.request("cb-2", "inspect", "{\"text\":\"hi\"}"))
                .putExtra(Intentbridge.ExtraCallback, "not a PendingIntent"));
        awaitStop();

        // No caller: refused in a release build, and answered in logcat.
        ShadowLog.LogItem line = onlyLogLine();
        assertEquals(Log.INFO, line.type);
        assertEquals(WireRule.failureReply("cb-2", "inspect", NO_CALLBACK_REFUSAL, "permission_denied"), line.msg);
    }
}

package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.os.Handler;
import android.os.Looper;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;
import org.robolectric.android.controller.ServiceController;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLog;

/**
 * The engine never runs on the main thread, and overlapping requests do not wait for each other: the
 * SDK runs up to RequestLimits.MAX_CONCURRENT_CALLS at once, and the service stops itself only after
 * the last reply.
 */
@RunWith(McpTestRunner.class)
@Config(sdk = Config.ALL_SDKS) // every level of robolectric.sdks: the start path branches on SDK_INT
public class ThreadingTest {
    @Rule public final WireRule agent = new WireRule(TestToolService.class);
    @Rule(order = 1) public final ClosedGate gate = new ClosedGate();

    @Test
    public void mainLooperStaysFreeWhileAHandlerIsBlocked() throws Exception {
        assertSame("the test thread is the main thread", Looper.getMainLooper().getThread(), Thread.currentThread());
        agent.sendMessage(WireRule.request("th-1", "hold", "{\"name\":\"th-1\"}"));
        // send() has returned: the binding thread did not wait for the handler.
        TestTool.awaitInside("th-1");

        // The worker is now parked in the handler, inside Go -> Java. Work posted to the main
        // looper still runs at once.
        AtomicBoolean ran = new AtomicBoolean();
        new Handler(Looper.getMainLooper()).post(() -> ran.set(true));
        shadowOf(Looper.getMainLooper()).idle();
        assertTrue("main looper ran a task while the handler waited", ran.get());
        assertEquals(List.of(), agent.replies());

        Gate.open();
        assertEquals(TestTool.heldReply("th-1", "th-1"), agent.awaitReplyJson());
    }

    /**
     * Two requests started close together. The first is a slow read-only capability without a
     * callback (adb's, with the developer switch on: a request without a caller runs only what
     * reads), whose reply goes to logcat; the second arrives while the first runs. Another worker
     * answers the second meanwhile, the service keeps running for the first, and only the last
     * reply stops it, with the newest start id.
     */
    @Test
    public void overlappingStarts_areAnsweredAsTheyFinish_andTheServiceStopsAfterTheLast() throws Exception {
        agent.settings().setDeveloperSwitchOn(true);
        ServiceController<? extends McpToolService> service = agent.startService(
                agent.intentWithoutCallback(WireRule.request("first", "hold", "{\"name\":\"first\"}")));
        TestTool.awaitInside("first");

        // The second, read-only, in an Intent with a callback, while the first waits at the gate.
        service.withIntent(agent.intentFor(WireRule.request("second", "inspect", "{\"text\":\"hi\"}")))
                .startCommand(0, 2);
        WireRule.idleUntil("the second reply", () -> agent.replies().size() == 1);
        assertEquals(TestTool.inspectedReply("second", "hi", ""), agent.replies().get(0).getStringExtra(Intentbridge.ExtraResponse));
        assertEquals("the first still runs", List.of("first"), Gate.inside());
        assertFalse("still running for the first", shadowOf(service.get()).isStoppedBySelf());
        assertEquals(List.of(), logged());

        Gate.open();
        WireRule.idleUntil("the first reply, in logcat", () -> logged().size() == 1);
        assertEquals(List.of(TestTool.heldReply("first", "first")), logged());
        assertEquals(1, agent.replies().size());
        WireRule.idleUntil("stopSelf(2)", () -> shadowOf(service.get()).getStopSelfId() == 2);
    }

    private static List<String> logged() {
        return ShadowLog.getLogsForTag(McpToolService.LOG_TAG).stream()
                .filter(l -> l.type == Log.INFO).map(l -> l.msg).collect(Collectors.toList());
    }
}

package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;

import android.content.Intent;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.ToolSettings;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.internal.RequestLimits;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.ArrayList;
import java.util.List;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * The workers and the deadline: at most RequestLimits.MAX_CONCURRENT_CALLS handlers run at once,
 * half of them at most for one app, and the rest wait their turn; a handler that overruns its
 * deadline leaves its caller answered timeout at the deadline; and bounded work per caller
 * (docs/reliability.md, "Requests in flight"): one app that sends request after request over a
 * binding gets rate_limited past RequestLimits.MAX_IN_FLIGHT_PER_CALLER, at once and without
 * queueing, and an oversized request is refused before it is queued. AdmissionTest holds the other
 * transports to the same.
 */
@RunWith(McpTestRunner.class)
public class BoundedWorkTest {
    @Rule public final WireRule agent = new WireRule(TestToolService.class);
    @Rule(order = 1) public final ClosedGate gate = new ClosedGate();

    private List<String> specReplies() {
        List<String> out = new ArrayList<>();
        for (Intent reply : new ArrayList<>(agent.replies())) {
            out.add(reply.getStringExtra(Intentbridge.ExtraResponse));
        }
        return out;
    }

    @Test
    public void atMostMaxConcurrentCallsRunAtOnce_andTheRestWaitTheirTurn() throws Exception {
        assertEquals(4, RequestLimits.MAX_CONCURRENT_CALLS);
        // Three apps, so that the workers, not an app's own share, hold the fifth call back.
        List<String> names = List.of("a-1", "a-2", "b-1", "b-2", "c-1");
        for (String name : names) {
            agent.sendMessageAs("com.example." + name.charAt(0), Intentbridge.ExtraRequest, WireRule.request(name, "hold", "{\"name\":\"" + name + "\"}"));
        }
        WireRule.idleUntil("four calls at the gate", () -> Gate.inside().size() == 4);
        Thread.sleep(200); // had a fifth worker run, the fifth call would be inside by now
        assertEquals(4, Gate.inside().size());
        assertEquals(List.of(), agent.replies());

        Gate.open();
        WireRule.idleUntil("five replies", () -> agent.replies().size() == 5);
        List<String> want = new ArrayList<>();
        for (String name : names) {
            want.add(TestTool.heldReply(name, name));
        }
        List<String> got = specReplies();
        got.sort(null);
        want.sort(null);
        assertEquals(want, got);
    }

    /** One app runs at most half the workers at once, so that another app's call finds one free. */
    @Test
    public void oneAppRunsAtMostHalfTheWorkers() throws Exception {
        for (int i = 1; i <= 3; i++) {
            agent.sendMessage(WireRule.request("h-" + i, "hold", "{\"name\":\"h-" + i + "\"}"));
        }
        TestTool.awaitInside("h-1", "h-2");
        Thread.sleep(200); // had the app a third worker, h-3 would be inside by now
        assertEquals(2, Gate.inside().size());

        Gate.open();
        WireRule.idleUntil("three replies", () -> agent.replies().size() == 3);
        assertEquals("h-3 ran only once one of the first two ended", "h-3", Gate.arrived().get(2));
    }

    @Test
    public void aHandlerPastItsDeadline_isAnsweredTimeoutAtTheDeadline() throws Exception {
        EngineAccess.setTimeoutMillis(agent.app(), 300);
        long started = System.nanoTime();
        agent.sendMessage(WireRule.request("slow", "hold", "{\"name\":\"slow\"}"));
        assertEquals(WireRule.failureReply("slow", "hold", "hold did not finish within 300ms", "timeout"), agent.awaitReplyJson());
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertEquals("the handler still waits; its caller has its answer", List.of("slow"), Gate.inside());
        if (millis < 300 || millis > 5000) {
            throw new AssertionError("the timeout came after " + millis + " ms, not at the 300 ms deadline");
        }

        // The handler's late outcome is dropped: the caller gets one reply, and the tool serves on.
        Gate.open();
        WireRule.idleUntil("the handler to finish", () -> Gate.inside().isEmpty());
        Thread.sleep(100);
        assertEquals(1, agent.replies().size());
        agent.replies().clear();
        assertEquals(TestTool.inspectedReply("next", "hi", TestTool.APP), agent.sendBound(WireRule.request("next", "inspect", "{\"text\":\"hi\"}"), WireRule.Extras.SPEC).getString(Intentbridge.ExtraResponse));
    }

    @Test
    public void oneAppPastItsRequestsInFlight_isRateLimited_withoutQueueing() throws Exception {
        // The app's share of the workers runs holds that wait at the closed gate; the calls sent
        // after them wait in the queue. All of them are in flight.
        for (int i = 0; i < RequestLimits.MAX_CONCURRENT_CALLS; i++) {
            agent.sendMessage(WireRule.request("f-" + i, "hold", "{\"name\":\"f-" + i + "\"}"));
        }
        for (int i = RequestLimits.MAX_CONCURRENT_CALLS; i < RequestLimits.MAX_IN_FLIGHT_PER_CALLER; i++) {
            agent.sendMessage(WireRule.request("f-" + i, "inspect", "{\"text\":\"hi\"}"));
        }
        agent.sendMessage(WireRule.request("f-over", "record", "{\"text\":\"over\"}"));
        WireRule.idleUntil("the refusal", () -> !agent.replies().isEmpty());
        assertEquals(64, RequestLimits.MAX_IN_FLIGHT_PER_CALLER);
        assertEquals(List.of(WireRule.failureReply("f-over", "record", "io.github.mobilemcp.sdktests has 64 requests in flight"
                + " to this tool, the most one app may have; send the next once one is answered", "rate_limited")), specReplies());
        assertEquals(List.of(), TestTool.recorded());
    }

    @Test
    public void anOversizedRequest_isRefusedBeforeItIsQueued() throws Exception {
        String text = "x".repeat(70_001);
        agent.sendMessage(WireRule.request("big", "record", "{\"text\":\"" + text + "\"}"));
        WireRule.idleUntil("the refusal", () -> !agent.replies().isEmpty());
        // Not read at all, so the reply cannot name the request's id.
        assertEquals(List.of(WireRule.failureReply(null, null, "request is 70112 bytes; the limit is 65536", "too_large")), specReplies());
        assertEquals(List.of(), TestTool.recorded());
    }
}

package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.RequestLimits;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * Fair workers (docs/security.md, "An app that floods the tool"): another app sends slow read-only
 * calls, which need no consent, as many as there are workers; the assistant the user allowed is
 * still answered at once, by binding and by Intent, while those calls run. The flood's calls are
 * answered too, once they may finish.
 */
@RunWith(McpTestRunner.class)
public class FairWorkersTest {
    private static final String FLOOD = "com.example.flood";
    private static final String INSPECT = "{\"text\":\"hi\"}";

    @Rule public final WireRule agent = new WireRule(TestToolService.class);

    @Rule(order = 1) public final ClosedGate gate = new ClosedGate();

    private static String hold(String name) {
        return WireRule.request(name, "hold", "{\"name\":\"" + name + "\"}");
    }

    /** Waits until the flood's calls hold what workers they can get. */
    private static void floodRuns() throws InterruptedException {
        WireRule.idleUntil("the flood's calls to run", () -> Gate.inside().size() >= 2);
        Thread.sleep(200); // time for the rest of them to take the workers, where they can
    }

    private void floodByBinding() throws InterruptedException {
        for (int i = 1; i <= RequestLimits.MAX_CONCURRENT_CALLS; i++) {
            agent.sendMessageAs(FLOOD, Intentbridge.ExtraRequest, hold("flood-" + i));
        }
        floodRuns();
    }

    /** Checks that the flood's calls still run, then lets them finish and waits for their replies. */
    private void floodStillRunsThenEnds() throws InterruptedException {
        assertFalse("the flood's calls still run", Gate.inside().isEmpty());
        Gate.open();
        WireRule.idleUntil("the flood's replies", () -> agent.replies().size() == 1 + RequestLimits.MAX_CONCURRENT_CALLS);
    }

    @Test
    public void anAssistantsBoundCall_isAnsweredWhileAnotherAppsSlowCallsRun() throws Exception {
        floodByBinding();
        assertEquals(TestTool.inspectedReply("a-1", "hi", TestTool.APP), agent.sendBound(WireRule.request("a-1", "inspect", INSPECT), WireRule.Extras.SPEC).getString(Intentbridge.ExtraResponse));
        floodStillRunsThenEnds();
    }

    @Test
    public void anAssistantsIntent_isAnsweredWhileAnotherAppsSlowCallsRun() throws Exception {
        floodByBinding();
        agent.deliver(agent.intentFor(WireRule.request("a-2", "inspect", INSPECT)));
        // Over an Intent the caller is only claimed, so the handler is told of none.
        assertEquals(TestTool.inspectedReply("a-2", "hi", ""), agent.awaitReplyJson());
        floodStillRunsThenEnds();
    }

    /**
     * Requests without a callback (the developer switch on) name no app, so the app that floods by
     * binding may send them too: together they run one at a time, the app holds three workers at
     * most, and the assistant's bound call is answered at once.
     */
    @Test
    public void anAssistantsBoundCall_isAnsweredWhileAnotherAppFloodsByBindingAndWithoutACallback() throws Exception {
        agent.settings().setDeveloperSwitchOn(true); // so that a request without a callback may run at all
        for (int i = 1; i <= RequestLimits.MAX_CONCURRENT_CALLS; i++) {
            agent.sendMessageAs(FLOOD, Intentbridge.ExtraRequest, hold("flood-" + i));
            agent.deliver(agent.intentWithoutCallback(hold("nameless-" + i)));
        }
        floodRuns();
        assertEquals("the flood's calls hold three workers, leaving one: " + Gate.inside(), RequestLimits.MAX_CONCURRENT_CALLS - 1, Gate.inside().size());
        assertEquals(TestTool.inspectedReply("a-4", "hi", TestTool.APP), agent.sendBound(WireRule.request("a-4", "inspect", INSPECT), WireRule.Extras.SPEC).getString(Intentbridge.ExtraResponse));
        floodStillRunsThenEnds(); // the replies without a callback go to logcat
    }

    @Test
    public void anAssistantsBoundCall_isAnsweredWhileAnotherAppFloodsByIntent() throws Exception {
        for (int i = 1; i <= RequestLimits.MAX_CONCURRENT_CALLS; i++) {
            agent.deliver(agent.intentFrom(FLOOD, hold("flood-" + i)));
        }
        floodRuns();
        assertEquals(TestTool.inspectedReply("a-3", "hi", TestTool.APP), agent.sendBound(WireRule.request("a-3", "inspect", INSPECT), WireRule.Extras.SPEC).getString(Intentbridge.ExtraResponse));
        floodStillRunsThenEnds();
    }
}

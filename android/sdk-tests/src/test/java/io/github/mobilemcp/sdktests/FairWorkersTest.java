package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.testing.McpTestRunner;

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

    @Rule public final Agent agent = new Agent();

    private static String hold(String name) {
        return Agent.specRequest(name, "hold", "{\"name\":\"" + name + "\"}");
    }

    /** Waits until the flood's calls hold what workers they can get. */
    private static void floodRuns() throws InterruptedException {
        Agent.idleMainUntil("the flood's calls to run", () -> Gate.inside().size() >= 2);
        Thread.sleep(200); // time for the rest of them to take the workers, where they can
    }

    private void floodByBinding() throws InterruptedException {
        for (int i = 1; i <= McpToolService.MAX_CONCURRENT_CALLS; i++) {
            agent.bindAs(FLOOD, Intentbridge.ExtraRequest, hold("flood-" + i));
        }
        floodRuns();
    }

    /** Checks that the flood's calls still run, then lets them finish and waits for their replies. */
    private void floodStillRunsThenEnds() throws InterruptedException {
        assertFalse("the flood's calls still run", Gate.inside().isEmpty());
        Gate.open();
        Agent.idleMainUntil("the flood's replies", () -> agent.replies.size() == 1 + McpToolService.MAX_CONCURRENT_CALLS);
    }

    @Test
    public void anAssistantsBoundCall_isAnsweredWhileAnotherAppsSlowCallsRun() throws Exception {
        floodByBinding();
        assertEquals(Agent.inspectedReply("a-1", "hi", Agent.APP), agent.callBound(Agent.specRequest("a-1", "inspect", INSPECT)));
        floodStillRunsThenEnds();
    }

    @Test
    public void anAssistantsIntent_isAnsweredWhileAnotherAppsSlowCallsRun() throws Exception {
        floodByBinding();
        agent.deliver(agent.specIntent(Agent.specRequest("a-2", "inspect", INSPECT)));
        // Over an Intent the caller is only claimed, so the handler is told of none.
        assertEquals(Agent.inspectedReply("a-2", "hi", ""), agent.awaitSpecReply());
        floodStillRunsThenEnds();
    }

    @Test
    public void anAssistantsBoundCall_isAnsweredWhileAnotherAppFloodsByIntent() throws Exception {
        for (int i = 1; i <= McpToolService.MAX_CONCURRENT_CALLS; i++) {
            agent.deliver(agent.specIntentFrom(FLOOD, i, hold("flood-" + i)));
        }
        floodRuns();
        assertEquals(Agent.inspectedReply("a-3", "hi", Agent.APP), agent.callBound(Agent.specRequest("a-3", "inspect", INSPECT)));
        floodStillRunsThenEnds();
    }
}

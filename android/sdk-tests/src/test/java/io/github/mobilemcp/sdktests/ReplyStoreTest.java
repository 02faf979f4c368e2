package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.intentbridge.Tool;
import io.github.mobilemcp.sdk.internal.DescriptorTree;
import io.github.mobilemcp.sdk.testing.InstalledApps;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * The reply store: a request of a capability that changes something, repeated under the same
 * request id by the same caller (an agent's retry after a lost reply), gets the first request's
 * reply again and does not run again, also after the app's process restarts. Another caller's id is
 * its own; an id reused for another request is refused; a refusal is not kept, so the caller may fix
 * the request and retry under its id.
 */
@RunWith(McpTestRunner.class)
public class ReplyStoreTest {
    private static final String ASSISTANT = "com.example.assistant";

    @Rule public final WireRule agent = new WireRule(TestToolService.class);

    @Rule(order = 1) public final ClosedGate gate = new ClosedGate();

    private String record(String id, String text) throws InterruptedException {
        agent.replies().clear();
        return agent.sendBound(WireRule.request(id, "record", "{\"text\":\"" + text + "\"}"), WireRule.Extras.SPEC).getString(Intentbridge.ExtraResponse);
    }

    @Test
    public void aRetriedRequestId_getsTheSameReply_andTheHandlerRunsOnce() throws Exception {
        String first = record("r-1", "once");
        assertEquals(TestTool.recordedReply("r-1", 1), first);
        assertEquals(first, record("r-1", "once"));
        assertEquals(first, record("r-1", "once"));
        assertEquals(List.of("once"), TestTool.recorded());
        assertEquals(TestTool.recordedReply("r-2", 2), record("r-2", "twice"));
    }

    @Test
    public void theSameIdFromAnotherApp_isAnotherRequest() throws Exception {
        assertEquals(TestTool.recordedReply("r-1", 1), record("r-1", "mine"));
        InstalledApps.uidOf(agent.app(), ASSISTANT);
        agent.settings().allow(ASSISTANT);
        agent.replies().clear();
        agent.sendMessageAs(ASSISTANT, Intentbridge.ExtraRequest, WireRule.request("r-1", "record", "{\"text\":\"mine\"}"));
        assertEquals(TestTool.recordedReply("r-1", 2), agent.awaitReplyJson());
        assertEquals(List.of("mine", "mine"), TestTool.recorded());
    }

    @Test
    public void anIdReusedForAnotherRequest_isRefused() throws Exception {
        assertEquals(TestTool.recordedReply("r-1", 1), record("r-1", "first"));
        assertEquals(WireRule.failureReply("r-1", "record", "request id \"r-1\" was already used for a different request in the"
                + " last 10m0s; send a new id for a new request", "invalid_request"), record("r-1", "second"));
        assertEquals(List.of("first"), TestTool.recorded());
    }

    @Test
    public void aRefusalIsNotKept_soTheFixedRequestRunsUnderItsId() throws Exception {
        assertEquals(WireRule.failureReply("r-1", "record", "text is blank; give it some text", "invalid_arguments"), record("r-1", " "));
        assertEquals(TestTool.recordedReply("r-1", 1), record("r-1", "fixed"));
        assertEquals(List.of("fixed"), TestTool.recorded());
    }

    /**
     * As when Android kills the process between a request and its retry: the next process opens
     * the engine afresh on the app's files, and answers the retry from the store without running
     * the handler. (The SDK keeps one engine per Application, and a test cannot replace its
     * Application, so the next process's engine is opened here, with handlers that count runs.)
     */
    @Test
    public void theStoredReplySurvivesARestart() throws Exception {
        String first = record("r-1", "once");
        agent.stopService();

        AtomicInteger runs = new AtomicInteger();
        Tool tool = Intentbridge.newTool("res/xml/mcp_capabilities.xml",
                DescriptorTree.read(agent.app().getResources(), R.xml.mcp_capabilities));
        for (String capability : List.of("inspect", "record", "hold", "refuse")) {
            tool.setHandler(capability, (args, requestId, caller, timeoutMillis) -> {
                runs.incrementAndGet();
                return "{\"message\":\"ran again\",\"output\":{\"count\":0}}";
            });
        }
        Bridge next = Intentbridge.openBridge(agent.app().getFilesDir().getPath());
        try {
            next.start(tool);
            AtomicReference<String> again = new AtomicReference<>();
            next.handle(WireRule.request("r-1", "record", "{\"text\":\"once\"}"), TestTool.APP,
                    (spec, flat, requestId, errorCode) -> again.set(spec));
            assertEquals(first, again.get());
            assertEquals(0, runs.get());
        } finally {
            next.close();
        }
        assertEquals(List.of("once"), TestTool.recorded());
    }
}

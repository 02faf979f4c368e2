package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import android.content.Intent;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.testing.McpTestRunner;

import java.util.ArrayList;
import java.util.List;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * Bounded work per caller (docs/reliability.md, "Requests in flight"): one app that sends request
 * after request over a binding gets rate_limited past its share, at once and without queueing, and
 * an oversized request is refused before it is queued.
 */
@RunWith(McpTestRunner.class)
public class BoundedWorkTest {
    private static final String SEND = "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}";

    @Rule public final FakeAgent agent = new FakeAgent();

    private List<String> specReplies() {
        List<String> out = new ArrayList<>();
        for (Intent reply : new ArrayList<>(agent.replies)) {
            out.add(reply.getStringExtra(Intentbridge.ExtraResponse));
        }
        return out;
    }

    @Test
    public void oneAppPastItsRequestsInFlight_isRateLimited_withoutQueueing() throws Exception {
        agent.setSims(FakeAgent.SIM_14);
        // Each worker runs a send that waits for the radio's sent result, which never comes here;
        // the reads sent after them wait in the queue. All of them are in flight.
        for (int i = 0; i < McpToolService.MAX_CONCURRENT_CALLS; i++) {
            agent.bind(FakeAgent.specRequest("f-" + i, "send_sms", SEND));
        }
        for (int i = McpToolService.MAX_CONCURRENT_CALLS; i < McpToolService.MAX_IN_FLIGHT_PER_CALLER; i++) {
            agent.bind(FakeAgent.specRequest("f-" + i, "get_sms_subscriptions", "{}"));
        }
        agent.bind(FakeAgent.specRequest("f-over", "send_sms", SEND));
        FakeAgent.idleMainUntil("the refusal", () -> !agent.replies.isEmpty());
        assertEquals(List.of("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"f-over\",\"capability\":{\"id\":\"send_sms\"},\"status\":\"failure\","
                + "\"message\":\"io.github.mobilemcp.app has 128 requests in flight to this tool, the most one app may have;"
                + " send the next once one is answered\",\"error_code\":\"rate_limited\"}}}"), specReplies());
    }

    @Test
    public void anOversizedRequest_isRefusedBeforeItIsQueued() throws Exception {
        StringBuilder text = new StringBuilder();
        while (text.length() <= 70_000) {
            text.append("x");
        }
        agent.bind(FakeAgent.specRequest("big", "send_sms", "{\"sms_text\":\"" + text + "\"}"));
        FakeAgent.idleMainUntil("the refusal", () -> !agent.replies.isEmpty());
        String reply = specReplies().get(0);
        assertTrue(reply, reply.contains("\"error_code\":\"too_large\"") && reply.contains("the limit is 65536 bytes of UTF-8"));
        assertTrue(agent.nothingSent());
    }
}

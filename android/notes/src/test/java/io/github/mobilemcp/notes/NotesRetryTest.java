package io.github.mobilemcp.notes;

import static org.junit.Assert.assertEquals;

import io.github.mobilemcp.client.Mode;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * The SDK's promise to the notes tool: a request sent again under its id gets the first reply and
 * runs once. The request is written out here, id and all, through the SDK's own wire kit (a tool's
 * tests need no such thing: McpToolRule gives each call a fresh id).
 */
@RunWith(McpTestRunner.class)
public class NotesRetryTest {
    @Rule public final WireRule wire = new WireRule(NotesToolService.class);

    @Test
    public void aRetriedRequestIdCreatesOneNote() throws Exception {
        String request = "{\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{\"id\":\"retry-1\","
                + "\"capability\":{\"id\":\"create_note\",\"args\":{\"title\":\"Once\"}}}}}";
        String first = wire.sendForResponse(request, Mode.BINDING);
        String again = wire.sendForResponse(request, Mode.BINDING);
        assertEquals(first, again);
        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"retry-1\",\"capability\":{\"id\":\"create_note\","
                + "\"output\":[{\"name\":\"id\",\"type\":\"integer\",\"value\":1}]},\"status\":\"success\",\"message\":\"Created note 1\"}}}", first);
        assertEquals(1L, ((Number) wire.call("list_notes", "{}").outputs().get("count")).longValue());
    }
}

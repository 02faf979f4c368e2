package io.github.mobilemcp.notes;

import static org.junit.Assert.assertEquals;

import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.McpToolRule;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * The notes tool as an agent uses it, through McpToolRule: the real engine over JNI checks each
 * call against the notes' own descriptor, then the handlers run.
 */
@RunWith(McpTestRunner.class)
public class NotesToolTest {
    @Rule public final McpToolRule tool = new McpToolRule(NotesToolService.class);

    /** The reply's JSON without its id, which each call draws afresh. */
    private static String withoutId(Reply reply) {
        return reply.json().replace("\"id\":\"" + reply.id() + "\"", "\"id\":\"ID\"");
    }

    private static String reply(String body) {
        return "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"ID\"," + body + "}}}";
    }

    @Test
    public void createListAndDelete() throws Exception {
        assertEquals(reply("\"capability\":{\"id\":\"create_note\",\"output\":[{\"name\":\"id\",\"type\":\"integer\",\"value\":1}]},"
                + "\"status\":\"success\",\"message\":\"Created note 1\""),
                withoutId(tool.call("create_note", "{\"title\":\"Milk\",\"body\":\"2 litres\"}")));
        assertEquals(reply("\"capability\":{\"id\":\"list_notes\",\"output\":[{\"name\":\"count\",\"type\":\"integer\",\"value\":1},"
                + "{\"name\":\"notes\",\"type\":\"array\",\"value\":[{\"id\":1,\"title\":\"Milk\",\"body\":\"2 litres\"}]}]},"
                + "\"status\":\"success\",\"message\":\"1 note\""),
                withoutId(tool.call("list_notes", "{}")));
        assertEquals(reply("\"capability\":{\"id\":\"delete_note\",\"output\":[{\"name\":\"id\",\"type\":\"integer\",\"value\":1}]},"
                + "\"status\":\"success\",\"message\":\"Deleted note 1\""),
                withoutId(tool.call("delete_note", "{\"id\":\"1\"}"))); // a canonical string for the integer
        assertEquals(reply("\"capability\":{\"id\":\"delete_note\"},\"status\":\"failure\","
                + "\"message\":\"there is no note 1; list_notes gives the ids\",\"error_code\":\"invalid_arguments\""),
                withoutId(tool.call("delete_note", "{\"id\":1}")));
    }

    @Test
    public void argumentsAreCheckedAgainstTheNotesDescriptor() throws Exception {
        String[][] cases = {
            {"{\"title\":5}", "create_note: title must be a string, got number 5"},
            {"{\"title\":\"Milk\",\"colour\":\"red\"}", "create_note: unknown argument \\\"colour\\\"; known arguments: title, body"},
            {"{}", "create_note: title is required (string: A short title.)"},
            {"{\"title\":\"" + "x".repeat(101) + "\"}", "create_note: title is 101 characters long; the limit is 100"},
        };
        for (String[] c : cases) {
            assertEquals(c[0], reply("\"capability\":{\"id\":\"create_note\"},\"status\":\"failure\",\"message\":\"" + c[1]
                    + "\",\"error_code\":\"invalid_arguments\""), withoutId(tool.call("create_note", c[0])));
        }
        assertEquals(reply("\"capability\":{\"id\":\"delete_note\"},\"status\":\"failure\","
                + "\"message\":\"delete_note: id must be an integer, got string \\\"first\\\"\",\"error_code\":\"invalid_arguments\""),
                withoutId(tool.call("delete_note", "{\"id\":\"first\"}")));
        assertEquals(reply("\"capability\":{\"id\":\"archive_note\"},\"status\":\"failure\","
                + "\"message\":\"no capability \\\"archive_note\\\"; this tool offers: create_note, list_notes, delete_note\",\"error_code\":\"unknown_capability\""),
                withoutId(tool.call("archive_note", "{}")));
        // None of it reached a handler.
        assertEquals("0 notes", tool.call("list_notes", "{}").message());
    }
}

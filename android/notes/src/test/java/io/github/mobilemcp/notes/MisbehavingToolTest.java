package io.github.mobilemcp.notes;

import static org.junit.Assert.assertEquals;

import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.McpToolRule;

import java.util.ArrayList;
import java.util.List;

import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.runners.Enclosed;
import org.junit.runner.RunWith;
import org.robolectric.shadows.ShadowLog;

/**
 * What an agent gets from tools whose developer made a mistake: a handler that throws, overruns its
 * deadline, returns what the descriptor does not declare or a null output, a handler missing, a
 * broken descriptor.
 * Each is a failure reply that says what is wrong, and the app keeps running. The tools are test
 * services on the notes descriptor (or a broken one), registered as a manifest would.
 */
@RunWith(Enclosed.class)
public class MisbehavingToolTest {

    private static String failure(Reply reply) {
        return reply.errorCode() + ": " + reply.message();
    }

    /** Handlers that throw, overrun or return what the descriptor does not declare. */
    @RunWith(McpTestRunner.class)
    public static class BadHandlers {
        @Rule public final McpToolRule tool = new McpToolRule(MisbehavingServices.Misbehaving.class)
                .withDescriptor(R.xml.mcp_capabilities).withTimeoutMillis(300);

        @Test
        public void aThrowingHandlerIsAnInternalErrorAndTheToolKeepsServing() throws Exception {
            Reply thrown = tool.call("create_note", "{\"title\":\"x\"}");
            assertEquals("internal_error: create_note failed: its handler threw an exception, which the tool logged under request "
                    + thrown.id(), failure(thrown));
            assertEquals("internal_error: delete_note returned the output \"deleted_id\", which its descriptor does not declare; it declares: id",
                    failure(tool.call("delete_note", "{\"id\":1}")));
        }

        @Test
        public void aThrowingArgumentCheckIsAnInternalError() throws Exception {
            assertEquals("internal_error: delete_note's argument check failed in Java: its check threw an exception, which the tool logged",
                    failure(tool.call("delete_note", "{\"id\":3}")));
        }

        @Test
        public void aMistypedOutputIsAnInternalError() throws Exception {
            assertEquals("internal_error: delete_note returned the output \"id\" as string \"one\"; its descriptor declares an integer",
                    failure(tool.call("delete_note", "{\"id\":2}")));
        }

        @Test
        public void aNullOutputIsAnInternalErrorFromThePutThatNamesIt() throws Exception {
            ShadowLog.clear();
            Reply thrown = tool.call("delete_note", "{\"id\":4}");
            assertEquals("internal_error: delete_note failed: its handler threw an exception, which the tool logged under request "
                    + thrown.id(), failure(thrown));
            List<String> logged = new ArrayList<>();
            for (ShadowLog.LogItem item : ShadowLog.getLogsForTag(McpToolService.LOG_TAG)) {
                if (item.throwable != null) {
                    logged.add(item.throwable.toString());
                }
            }
            assertEquals(List.of("java.lang.NullPointerException: ToolResult.put(\"id\", null): an output value cannot be null; a success"
                    + " returns every output its descriptor declares, each with a value of its declared type, so return a failure,"
                    + " such as ToolResult.invalidArguments(...), when there is none"), logged);
        }

        @Test
        public void anOverrunningHandlerIsATimeoutAtItsDeadline() throws Exception {
            long start = System.nanoTime();
            assertEquals("timeout: list_notes did not finish within 300ms",
                    failure(tool.call("list_notes", "{}")));
            long millis = (System.nanoTime() - start) / 1_000_000;
            if (millis > 2500) {
                throw new AssertionError("the timeout came after " + millis + " ms, when the handler returned, not at the deadline");
            }
        }
    }

    /** A capability of the descriptor without a handler. */
    @RunWith(McpTestRunner.class)
    public static class MissingHandler {
        @Rule public final McpToolRule tool = new McpToolRule(MisbehavingServices.Incomplete.class).withDescriptor(R.xml.mcp_capabilities);

        @Test
        public void theToolDoesNotStartAndSaysWhy() throws Exception {
            assertEquals("internal_error: this tool cannot start, so it runs nothing; its developer must fix this: "
                    + "res/xml/mcp_capabilities.xml:23 declares delete_note, but it has no handler",
                    failure(tool.call("list_notes", "{}")));
        }
    }

    /** A descriptor with lint errors. */
    @RunWith(McpTestRunner.class)
    public static class BrokenDescriptor {
        @Rule public final McpToolRule tool = new McpToolRule(MisbehavingServices.Broken.class).withDescriptor(R.xml.broken_capabilities);

        @Test
        public void theToolDoesNotStartAndSaysWhy() throws Exception {
            // The findings point at the lines of the source file, src/test/res/xml/broken_capabilities.xml.
            assertEquals("internal_error: this tool cannot start, so it runs nothing; its developer must fix this: its descriptor has errors:\n"
                    + "  res/xml/broken_capabilities.xml:4: error: capability \"create_note\" has no version attribute; add version=\"1.0\" [missing-attribute]\n"
                    + "  res/xml/broken_capabilities.xml:4: error: capability \"create_note\" has mcp:timeout=\"soon\"; write a duration from 1ms to 10m, such as mcp:timeout=\"60s\" or mcp:timeout=\"500ms\" [extension-value]",
                    failure(tool.call("create_note", "{\"title\":\"x\"}")));
        }
    }
}

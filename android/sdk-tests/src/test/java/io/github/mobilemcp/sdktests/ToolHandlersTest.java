package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import android.os.Bundle;

import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.ErrorCode;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.ToolFailure;
import io.github.mobilemcp.sdk.ToolResult;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.ArrayList;
import java.util.List;

import org.junit.Rule;
import org.junit.Test;
import org.junit.experimental.runners.Enclosed;
import org.junit.runner.RunWith;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.shadows.ShadowLog;

/**
 * A tool written with Java handlers: what ToolHandlers.on and validate register, what a handler's
 * ToolCall holds (each typed getter, the defaults of the optional arguments, the caller, the request
 * id, the time left), what its ToolResult becomes on the wire (each put overload, each ErrorCode),
 * and what a developer's mistake in using them tells the developer.
 */
@RunWith(Enclosed.class)
public class ToolHandlersTest {
    private static String outcome(Reply reply) {
        return (reply.isSuccess() ? "success" : "failure") + " " + reply.errorCode() + ": " + reply.message()
                + (reply.retryAfterMillis() == null ? "" : " (retry after " + reply.retryAfterMillis() + " ms)");
    }

    /** The test tool, called over binding mode by this app, which the user has allowed. */
    @RunWith(McpTestRunner.class)
    public static class Handlers {
        @Rule public final WireRule tool = new WireRule(TestToolService.class);

        private static List<String> recorded() {
            return new Records(RuntimeEnvironment.getApplication()).all();
        }

        @Test
        public void everyArgumentReachesTheHandlerWithItsType_andEveryOutputTheCaller() throws Exception {
            Bundle reply = tool.sendBound(WireRule.request("all-1", "inspect", "{\"text\":\"héllo 🎉\",\"count\":-9007199254740993,"
                    + "\"ratio\":2.25,\"flag\":true,\"options\":{\"b\":[1,2],\"a\":{\"x\":null}},\"tags\":[\"x\",\"y\"]}"), WireRule.Extras.SPEC);
            assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"all-1\","
                    + "\"capability\":{\"id\":\"inspect\",\"output\":["
                    + "{\"name\":\"text\",\"type\":\"string\",\"value\":\"héllo 🎉\"},"
                    + "{\"name\":\"length\",\"type\":\"integer\",\"value\":8},"
                    + "{\"name\":\"count\",\"type\":\"integer\",\"value\":-9007199254740993},"
                    + "{\"name\":\"ratio\",\"type\":\"number\",\"value\":2.25},"
                    + "{\"name\":\"flag\",\"type\":\"boolean\",\"value\":true},"
                    + "{\"name\":\"options\",\"type\":\"object\",\"value\":{\"a\":{\"x\":null},\"b\":[1,2]}},"
                    + "{\"name\":\"tags\",\"type\":\"array\",\"value\":[\"x\",\"y\"]},"
                    + "{\"name\":\"given\",\"type\":\"array\",\"value\":[\"count\",\"flag\",\"options\",\"ratio\",\"tags\",\"text\"]},"
                    + "{\"name\":\"call\",\"type\":\"object\",\"value\":{\"capability\":\"inspect\",\"request_id\":\"all-1\","
                    + "\"caller\":\"io.github.mobilemcp.sdktests\"}},"
                    + "{\"name\":\"in_time\",\"type\":\"boolean\",\"value\":true}]},"
                    + "\"status\":\"success\",\"message\":\"Inspected inspect\"}}}", reply.getString("mobile-mcp-response"));
        }

        @Test
        public void theOptionalArgumentsLeftOutGetTheHandlersDefaults() throws Exception {
            Reply reply = tool.call("inspect", "{\"text\":\"\"}");
            assertEquals("success", (reply.isSuccess() ? "success" : "failure"));
            assertEquals("", reply.getString("text"));
            assertEquals(0L, reply.getLong("length"));
            assertEquals(7L, reply.getLong("count"));
            assertEquals(0.5, reply.getDouble("ratio"), 0);
            assertFalse(reply.getBoolean("flag"));
            assertEquals("{}", reply.getObject("options").toString());
            assertEquals("[]", reply.getArray("tags").toString());
            assertEquals("[\"text\"]", reply.getArray("given").toString());
            assertTrue("the handler had time left, within the default deadline of 30 s", reply.getBoolean("in_time"));
        }

        @Test
        public void theHandlerIsToldItsCallerAndRequestId() throws Exception {
            Reply reply = tool.callAs("com.example.assistant", "inspect", "{\"text\":\"hi\"}");
            assertEquals("com.example.assistant", reply.getObject("call").getString("caller"));
            assertEquals("inspect", reply.getObject("call").getString("capability"));
            assertEquals(reply.id(), reply.getObject("call").getString("request_id"));
        }

        @Test
        public void aHandlersFailureIsItsErrorCodeAndMessage_forEveryCode() throws Exception {
            List<String> got = new ArrayList<>();
            // The codes a handler may fail with; the engine alone sends the others.
            for (ErrorCode code : List.of(ErrorCode.INVALID_ARGUMENTS, ErrorCode.PERMISSION_DENIED, ErrorCode.PLATFORM_ERROR,
                    ErrorCode.TIMEOUT, ErrorCode.RATE_LIMITED, ErrorCode.INTERNAL_ERROR)) {
                got.add(outcome(tool.call("refuse", "{\"code\":\"" + code.name() + "\"}")));
            }
            List<String> want = List.of(
                    "failure invalid_arguments: refused with invalid_arguments",
                    "failure permission_denied: refused with permission_denied",
                    "failure platform_error: refused with platform_error",
                    "failure timeout: refused with timeout",
                    "failure rate_limited: refused with rate_limited (retry after 30000 ms)",
                    "failure internal_error: refused with internal_error");
            assertEquals(want, got);

            // Thrown as a ToolFailure, from anywhere in the handler, each is the same reply.
            List<String> thrown = new ArrayList<>();
            for (ErrorCode code : List.of(ErrorCode.INVALID_ARGUMENTS, ErrorCode.PERMISSION_DENIED, ErrorCode.PLATFORM_ERROR,
                    ErrorCode.TIMEOUT, ErrorCode.RATE_LIMITED, ErrorCode.INTERNAL_ERROR)) {
                thrown.add(outcome(tool.call("refuse", "{\"code\":\"" + code.name() + "\",\"thrown\":true}")));
            }
            assertEquals(want, thrown);
        }

        @Test
        public void anExceptionOfTheHandlers_reachesAnotherAppAsAFixedInternalError_andTheLogInFull() throws Exception {
            ShadowLog.clear();
            Reply reply = tool.callAs("com.example.assistant", "refuse", "{\"code\":\"EXCEPTION\"}");
            assertEquals("failure internal_error: refuse failed: its handler threw an exception, which the tool logged under request "
                    + reply.id(), outcome(reply));
            assertFalse(reply.json(), reply.json().contains("secret"));
            List<String> logged = new ArrayList<>();
            for (ShadowLog.LogItem item : ShadowLog.getLogsForTag(McpToolService.LOG_TAG)) {
                if (item.throwable != null) {
                    logged.add(item.msg + ": " + item.throwable);
                }
            }
            assertEquals(List.of("the handler of refuse threw, for request " + reply.id() + ": java.lang.IllegalStateException:"
                    + " secret: SELECT body FROM notes WHERE owner = 'ada@example.com'"), logged);
        }

        @Test
        public void theArgumentCheckRunsBeforeConsent_andItsProblemIsInvalidArguments() throws Exception {
            tool.settings().forget(RuntimeEnvironment.getApplication().getPackageName());
            assertEquals("failure invalid_arguments: text is blank; give it some text", outcome(tool.call("record", "{\"text\":\"  \"}")));
            assertEquals("no question for an invalid call", 0, tool.settings().getCallers().size());
            assertEquals(List.of(), recorded());

            tool.settings().allow(RuntimeEnvironment.getApplication().getPackageName());
            assertEquals("failure invalid_arguments: text is blank; give it some text", outcome(tool.call("record", "{\"text\":\"\"}")));
            assertEquals("success null: Recorded", outcome(tool.call("record", "{\"text\":\"one\"}")));
            assertEquals(List.of("one"), recorded());
        }
    }

    /** Handlers that read an argument with the getter of another type. */
    @RunWith(McpTestRunner.class)
    public static class WrongGetters {
        @Rule public final WireRule tool = new WireRule(TestServices.WrongGetters.class).withDescriptor(R.xml.mcp_capabilities);

        @Test
        public void aGetterOfAnotherType_orOfAnArgumentLeftOut_tellsTheDeveloperWhichToUse() throws Exception {
            ShadowLog.clear();
            Reply inspect = tool.call("inspect", "{\"text\":\"hi\",\"count\":3}");
            Reply hold = tool.call("hold", "{}");
            assertEquals("failure internal_error: inspect failed: its handler threw an exception, which the tool logged under request "
                    + inspect.id(), outcome(inspect));
            // The developer reads why in the log (and McpToolRule prints it with the test's output).
            List<String> logged = new ArrayList<>();
            for (ShadowLog.LogItem item : ShadowLog.getLogsForTag(McpToolService.LOG_TAG)) {
                if (item.throwable != null) {
                    logged.add(item.throwable.getMessage());
                }
            }
            assertEquals(List.of("the argument count of inspect is a Integer, not a String; read it with the getter of the type the descriptor declares",
                    "hold was called without the argument name; it is optional in the descriptor, so read it with a default or check has(\"name\")"),
                    logged);
            assertEquals("failure internal_error: hold failed: its handler threw an exception, which the tool logged under request "
                    + hold.id(), outcome(hold));
        }
    }

    /** A null handler or check: the tool does not start, and says why. */
    @RunWith(McpTestRunner.class)
    public static class NullHandler {
        @Rule public final WireRule tool = new WireRule(TestServices.NullHandler.class).withDescriptor(R.xml.mcp_capabilities);

        @Test
        public void theToolDoesNotStartAndSaysWhy() throws Exception {
            assertEquals("failure internal_error: this tool cannot start, so it runs nothing; its developer must fix this: "
                    + "io.github.mobilemcp.sdktests.TestServices$NullHandler cannot start its Mobile-MCP tool: the handler of inspect is null",
                    outcome(tool.call("inspect", "{\"text\":\"hi\"}")));
        }
    }

    /** A null argument check. */
    @RunWith(McpTestRunner.class)
    public static class NullCheck {
        @Rule public final WireRule tool = new WireRule(TestServices.NullCheck.class).withDescriptor(R.xml.mcp_capabilities);

        @Test
        public void theToolDoesNotStartAndSaysWhy() throws Exception {
            assertEquals("failure internal_error: this tool cannot start, so it runs nothing; its developer must fix this: "
                    + "io.github.mobilemcp.sdktests.TestServices$NullCheck cannot start its Mobile-MCP tool: the argument check of record is null",
                    outcome(tool.call("inspect", "{\"text\":\"hi\"}")));
        }
    }

    /** ToolResult on its own: what a success and a failure hold, and what neither allows. */
    @RunWith(McpTestRunner.class)
    public static class Results {
        @Test
        public void aSuccessHoldsItsMessage_aFailureItsCode_andAFailureHasNoOutputs() {
            ToolResult ok = ToolResult.success("Done").put("n", 1);
            assertTrue(ok.isSuccess());
            assertNull(ok.errorCode());
            assertNull(ok.retryAfterMillis());
            assertEquals("Done", ok.message());
            assertEquals("", ToolResult.success(null).message());

            ToolResult failed = ToolResult.platformError("the disk is full");
            assertFalse(failed.isSuccess());
            assertEquals(ErrorCode.PLATFORM_ERROR, failed.errorCode());
            assertEquals("the disk is full", failed.message());
            assertEquals("a failure has no outputs; n cannot be set",
                    assertThrows(IllegalStateException.class, () -> failed.put("n", 1)).getMessage());
            assertEquals(Long.valueOf(30_000), ToolResult.rateLimited("retry in 30 seconds", 30_000).retryAfterMillis());
            assertEquals("ToolResult.rateLimited: retryAfterMillis must be positive, not 0",
                    assertThrows(IllegalArgumentException.class, () -> ToolResult.rateLimited("why", 0)).getMessage());
            ToolFailure thrown = ToolFailure.rateLimited("retry in 2 seconds", 2_000);
            assertEquals(ErrorCode.RATE_LIMITED, thrown.errorCode());
            assertEquals("retry in 2 seconds", thrown.getMessage());
            assertEquals(Long.valueOf(2_000), thrown.retryAfterMillis());
            assertEquals("output ratio: Forbidden numeric value: NaN",
                    assertThrows(IllegalArgumentException.class, () -> ToolResult.success("x").put("ratio", Double.NaN)).getMessage());
        }
    }
}

package io.github.mobilemcp.sdktests;

import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.ToolHandlers;
import io.github.mobilemcp.sdk.ToolResult;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

/**
 * Tool services on the test tool's descriptor with a developer's mistake in its use of the Tool SDK,
 * which WireRule.withDescriptor declares as the manifest would.
 */
final class TestServices {
    private TestServices() {}

    /** Reads inspect's integer count as a string, and its text as a number. */
    static class WrongGetters extends McpToolService {
        @Override
        protected void registerHandlers(ToolHandlers handlers) {
            handlers.on("inspect", call -> ToolResult.success(call.getString("count")));
            handlers.on("record", call -> ToolResult.success("Recorded").put("count", call.getLong("text")));
            handlers.on("hold", call -> ToolResult.success("Held").put("name", call.getString("name")));
            handlers.on("refuse", call -> ToolResult.success("not refused"));
        }
    }

    /** Registers a null handler. */
    static class NullHandler extends McpToolService {
        @Override
        protected void registerHandlers(ToolHandlers handlers) {
            handlers.on("inspect", null);
        }
    }

    /** Registers a null argument check. */
    static class NullCheck extends McpToolService {
        @Override
        protected void registerHandlers(ToolHandlers handlers) {
            handlers.check("record", null);
        }
    }
}

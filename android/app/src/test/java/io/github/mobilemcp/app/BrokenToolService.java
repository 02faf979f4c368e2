package io.github.mobilemcp.app;

import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.ToolHandlers;
import io.github.mobilemcp.sdk.ToolResult;

/** A tool on the notes descriptor whose developer made mistakes: create_note throws, list_notes never finishes. */
public class BrokenToolService extends McpToolService {
    @Override
    protected void registerHandlers(ToolHandlers handlers) {
        handlers.on("create_note", call -> {
            throw new IllegalStateException("the notes database is locked");
        });
        handlers.on("list_notes", call -> {
            Thread.sleep(60_000);
            return ToolResult.success("late");
        });
        handlers.on("delete_note", call -> ToolResult.success("Deleted").put("id", call.getLong("id")));
    }
}

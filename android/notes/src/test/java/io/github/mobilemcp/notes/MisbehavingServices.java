package io.github.mobilemcp.notes;

import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.ToolHandlers;
import io.github.mobilemcp.sdk.ToolResult;

import java.util.List;

/** Tool services with a developer's mistakes in them, for MisbehavingToolTest. */
final class MisbehavingServices {
    private MisbehavingServices() {}

    /**
     * Throws for create_note, overruns list_notes, answers delete_note with an undeclared output (or,
     * for the id 4, a null one), and checks delete_note's arguments with a check that throws for the
     * id 3.
     */
    static class Misbehaving extends McpToolService {
        @Override
        protected void registerHandlers(ToolHandlers handlers) {
            handlers.check("delete_note", call -> {
                if (call.getLong("id") == 3) {
                    throw new IllegalStateException("the check has no index");
                }
                return null;
            });
            handlers.on("create_note", call -> {
                throw new IllegalStateException("the notes database is locked");
            });
            handlers.on("list_notes", call -> {
                Thread.sleep(3000);
                return ToolResult.success("late").put("count", 0).put("notes", List.of());
            });
            handlers.on("delete_note", call -> {
                long id = call.getLong("id");
                if (id == 4) {
                    return ToolResult.success("deleted").put("id", (String) null);
                }
                return id == 1
                        ? ToolResult.success("deleted").put("deleted_id", 1)
                        : ToolResult.success("deleted").put("id", "one");
            });
        }
    }

    /** Has no handler for delete_note. */
    static class Incomplete extends McpToolService {
        @Override
        protected void registerHandlers(ToolHandlers handlers) {
            handlers.on("create_note", call -> ToolResult.success("ok").put("id", 1));
            handlers.on("list_notes", call -> ToolResult.success("ok").put("count", 0).put("notes", List.of()));
        }
    }

    /** Declared with the broken descriptor of src/test/res. */
    static class Broken extends McpToolService {
        @Override
        protected void registerHandlers(ToolHandlers handlers) {
            handlers.on("create_note", call -> ToolResult.success("ok"));
        }
    }

}

package io.github.mobilemcp.sdk;

import io.github.mobilemcp.intentbridge.Tool;

/**
 * Where a {@link McpToolService} registers the handler of each capability its descriptor declares.
 *
 * <pre>{@code
 * handlers.on("create_note", call -> ToolResult.success("Created").put("id", notes.add(call.getString("title"))));
 * }</pre>
 *
 * The tool starts only when every declared capability has a handler and every handler (and every
 * check) has a declared capability; otherwise it answers each request with {@code internal_error}
 * naming what is missing, and logs it.
 */
public final class ToolHandlers {
    private final Tool tool;
    private final CallerSigners signers;

    ToolHandlers(Tool tool, CallerSigners signers) {
        this.tool = tool;
        this.signers = signers;
    }

    /** Makes handler run capabilityId. Returns this, to chain calls. */
    public ToolHandlers on(String capabilityId, CapabilityHandler handler) {
        if (handler == null) {
            throw new IllegalArgumentException("the handler of " + capabilityId + " is null");
        }
        tool.setHandler(capabilityId, new JavaHandler(capabilityId, handler, signers));
        return this;
    }

    /**
     * Gives capabilityId, which has a handler, a check of its arguments that the descriptor cannot
     * state, run before the caller's consent and rate limit; see {@link ArgumentCheck}.
     *
     * <pre>{@code
     * handlers.check("create_note", call -> call.getString("title").trim().isEmpty() ? "title is blank" : null);
     * }</pre>
     *
     * Returns this, to chain calls.
     */
    public ToolHandlers check(String capabilityId, ArgumentCheck check) {
        if (check == null) {
            throw new IllegalArgumentException("the argument check of " + capabilityId + " is null");
        }
        tool.setArgumentCheck(capabilityId, new JavaArgumentCheck(capabilityId, check));
        return this;
    }

    /** The engine's description of the tool; the SMS reference app reaches it through internal.EngineAccess. */
    Tool engineTool() {
        return tool;
    }
}

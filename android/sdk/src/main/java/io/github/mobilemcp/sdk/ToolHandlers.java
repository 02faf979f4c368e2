package io.github.mobilemcp.sdk;

import io.github.mobilemcp.intentbridge.Tool;

/**
 * Where a {@link McpToolService} registers the handler of each capability its descriptor declares.
 *
 * <pre>{@code
 * handlers.on("create_note", call -> ToolResult.success("Created").put("id", notes.add(call.getString("title"))));
 * }</pre>
 *
 * The tool starts only when every declared capability has a handler and every handler has a
 * declared capability; otherwise it answers each request with {@code internal_error} naming what
 * is missing, and logs it.
 */
public final class ToolHandlers {
    private final Tool tool;

    ToolHandlers(Tool tool) {
        this.tool = tool;
    }

    /** Makes handler run capabilityId. Returns this, to chain calls. */
    public ToolHandlers on(String capabilityId, CapabilityHandler handler) {
        if (handler == null) {
            throw new IllegalArgumentException("the handler of " + capabilityId + " is null");
        }
        tool.setHandler(capabilityId, new JavaHandler(capabilityId, handler));
        return this;
    }

    /**
     * The engine's description of the tool, for capabilities implemented in Go inside the engine
     * itself, such as the reference app's SMS set ({@code engineTool().addSMS(platform)}). Using it
     * means building the engine yourself; apps that implement their capabilities in Java or Kotlin
     * never need it.
     */
    public Tool engineTool() {
        return tool;
    }
}

package com.example.greeter;

import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.ToolHandlers;
import io.github.mobilemcp.sdk.ToolResult;

/** The tool: one read-only capability, greet. */
public class GreeterToolService extends McpToolService {
    @Override
    protected void registerHandlers(ToolHandlers handlers) {
        handlers.on("greet", call -> {
            String greeting = "Hello, " + call.getString("name") + "!";
            return ToolResult.success(greeting).put("greeting", greeting);
        });
    }
}

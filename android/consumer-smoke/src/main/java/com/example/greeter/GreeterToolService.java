package com.example.greeter;

import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.ToolFailure;
import io.github.mobilemcp.sdk.ToolHandlers;
import io.github.mobilemcp.sdk.ToolResult;

/** The tool: one read-only capability, greet. Its main code compiles against the sdk alone, not the client library. */
public class GreeterToolService extends McpToolService {
    @Override
    protected void registerHandlers(ToolHandlers handlers) {
        handlers.on("greet", call -> {
            String name = call.getString("name");
            if (name.trim().isEmpty()) {
                throw ToolFailure.invalidArguments("name is blank; give the name of someone to greet");
            }
            String greeting = "Hello, " + name + "!";
            return ToolResult.success(greeting).put("greeting", greeting);
        });
    }
}

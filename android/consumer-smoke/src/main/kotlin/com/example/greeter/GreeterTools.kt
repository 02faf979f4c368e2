package com.example.greeter

import io.github.mobilemcp.sdk.McpToolService
import io.github.mobilemcp.sdk.ToolFailure
import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ktx.McpResult
import io.github.mobilemcp.sdk.ktx.McpTool

/**
 * The tool: one read-only capability, greet, as a typed handler that sdk-ksp checks against
 * res/xml/mcp_capabilities.xml when it compiles. Its main code compiles against the sdk and
 * sdk-ktx alone, not the client library.
 */
class GreeterTools {
    @McpTool("greet")
    fun greet(name: String): Greeting =
        if (name.isBlank()) throw ToolFailure.invalidArguments("name is blank; give the name of someone to greet")
        else Greeting("Hello, $name!")
}

/** greet's result: its one output, greeting, which is also the reply's message. */
data class Greeting(val greeting: String) : McpResult {
    override val message get() = greeting
}

/** The service the manifest declares; handlers.register is what sdk-ksp generated. */
class GreeterToolService : McpToolService() {
    override fun registerHandlers(handlers: ToolHandlers) {
        handlers.register(GreeterTools())
    }
}

package com.example.greeter

import io.github.mobilemcp.client.mcp.MobileMcpTransport
import io.github.mobilemcp.sdk.testing.McpTestRunner
import io.github.mobilemcp.sdk.testing.McpToolRule
import io.modelcontextprotocol.kotlin.sdk.client.Client
import io.modelcontextprotocol.kotlin.sdk.types.Implementation
import io.modelcontextprotocol.kotlin.sdk.types.TextContent
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.future.future
import kotlinx.coroutines.runBlocking
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith

/** An assistant in the app's own process: the MCP Kotlin SDK's Client through client-mcp's transport. */
@RunWith(McpTestRunner::class)
class GreeterMcpTest {
    @get:Rule val tool = McpToolRule(GreeterToolService::class.java)
    private val client = Client(Implementation(name = "greeter-test", version = "1"))

    @After fun disconnect() = runBlocking { client.close() }

    @Test fun anMcpClientListsAndCallsTheTool() {
        val (names, result) = tool.await(CoroutineScope(Dispatchers.Default).future {
            client.connect(MobileMcpTransport(tool.app()))
            val names = client.listTools().tools.map { "${it.name} readOnly=${it.annotations?.readOnlyHint}" }
            names to client.callTool("greet", mapOf("name" to "Ada"))
        })
        assertEquals(listOf("greet readOnly=true"), names)
        assertEquals(false, result.isError ?: false)
        assertEquals("Hello, Ada!", result.structuredContent?.get("greeting")?.toString()?.trim('"'))
        assertEquals(1, result.content.filterIsInstance<TextContent>().size)
    }
}

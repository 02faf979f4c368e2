package io.github.mobilemcp.sdk.ktx

import io.github.mobilemcp.sdk.McpToolService
import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolResult

// A tool that reads array arguments with the list getters; ListArgumentsTest runs it.
class ListToolService : McpToolService() {
    override fun registerHandlers(handlers: ToolHandlers) {
        handlers.on("describe") { call ->
            val words: List<String> = call.getStringList("words")
            val text = if (!call.has("sizes")) "words $words" else {
                val sizes: List<Long> = call.getLongList("sizes")
                val ratios: List<Double> = call.getDoubleList("ratios")
                val flags: List<Boolean> = call.getBooleanList("flags")
                val objects = call.getObjectList("objects").map { it.getString("k") }
                val rows = call.getArrayList("rows").map { it.length() }
                "words $words, sizes $sizes, ratios $ratios, flags $flags, objects $objects, rows $rows"
            }
            ToolResult.success(text).put("text", text)
        }
    }
}

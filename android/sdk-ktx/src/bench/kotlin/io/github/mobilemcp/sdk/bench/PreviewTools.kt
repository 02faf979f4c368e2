package io.github.mobilemcp.sdk.bench

import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolResult
import io.github.mobilemcp.sdk.ktx.McpResult
import io.github.mobilemcp.sdk.ktx.McpTool

// One handler written both ways, for TypedBenchmark: the same work (Notes.preview) and the same
// reply, once as a typed @McpTool function, whose registration sdk-ksp generates from
// src/bench/res/xml/mcp_capabilities.xml when the module's bench sources compile, and once on
// the string API.

/** The work both handlers do: nothing a benchmark would time apart from the handler's glue. */
object Notes {
    fun preview(title: String, body: String, priority: Long): Int = title.length + body.length + priority.toInt()
}

class PreviewTools {
    @McpTool("preview_note")
    fun previewNote(title: String, body: String?, pinned: Boolean?, priority: Long?): Preview =
        Preview(Notes.preview(title, body ?: "", priority ?: 1).toLong(), title, pinned ?: false)
}

data class Preview(val length: Long, val title: String, val pinned: Boolean) : McpResult {
    override val message get() = "A note of $length characters"
}

/** The string API's version of [PreviewTools.previewNote], as a developer would write it. */
fun ToolHandlers.registerByName(): ToolHandlers = on("preview_note") { call ->
    val title = call.getString("title")
    val pinned = call.getBoolean("pinned", false)
    val length = Notes.preview(title, call.getString("body", ""), call.getLong("priority", 1)).toLong()
    ToolResult.success("A note of $length characters")
        .put("length", length)
        .put("title", title)
        .put("pinned", pinned)
}

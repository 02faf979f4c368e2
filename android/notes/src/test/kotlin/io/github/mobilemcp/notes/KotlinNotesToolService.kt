package io.github.mobilemcp.notes

import io.github.mobilemcp.sdk.McpToolService
import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolResult

// The notes tool written in Kotlin, as docs/tool-sdk-java.md shows it (there named NotesToolService):
// proof that the SDK's API reads naturally from Kotlin (lambdas for handlers, typed getters, a small
// result builder). KotlinNotesToolTest runs it.
class KotlinNotesToolService : McpToolService() {
    override fun registerHandlers(handlers: ToolHandlers) {
        val notes = Notes(applicationContext)
        handlers.on("create_note") { call ->
            val id = notes.add(call.getString("title"), call.getString("body", ""))
            ToolResult.success("Created note $id").put("id", id)
        }
        handlers.check("create_note") { call ->
            if (call.getString("title").isBlank()) "title is blank; give the note a title" else null
        }
        handlers.on("list_notes") { _ ->
            val all = notes.list()
            ToolResult.success(if (all.length() == 1) "1 note" else "${all.length()} notes").put("count", all.length()).put("notes", all)
        }
        handlers.on("delete_note") { call ->
            val id = call.getLong("id")
            if (notes.delete(id)) ToolResult.success("Deleted note $id").put("id", id)
            else ToolResult.invalidArguments("there is no note $id; list_notes gives the ids")
        }
    }
}

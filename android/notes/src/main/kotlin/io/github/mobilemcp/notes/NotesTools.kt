package io.github.mobilemcp.notes

import android.content.Context
import io.github.mobilemcp.sdk.McpToolService
import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolFailure
import io.github.mobilemcp.sdk.ktx.McpResult
import io.github.mobilemcp.sdk.ktx.McpTool
import org.json.JSONArray

// The notes tool, as typed handlers: each function is checked against res/xml/mcp_capabilities.xml
// when it compiles (sdk-ksp, which the build runs on this module's Kotlin), and
// handlers.register(tools) is generated. docs/tool-sdk.md shows this file.
class NotesTools(context: Context) {
    private val notes = Notes(context)

    @McpTool("create_note")
    fun createNote(title: String, body: String?): Created = Created(notes.add(title, body ?: ""))

    @McpTool("list_notes")
    fun listNotes(): Listed = notes.list().let { Listed(it.length(), it) }

    @McpTool("delete_note")
    suspend fun deleteNote(id: Long): Deleted =
        if (notes.delete(id)) Deleted(id) else throw ToolFailure.invalidArguments("there is no note $id; list_notes gives the ids")
}

data class Created(val id: Long) : McpResult {
    override val message get() = "Created note $id"
}

data class Deleted(val id: Long) : McpResult {
    override val message get() = "Deleted note $id"
}

data class Listed(val count: Int, val notes: JSONArray) : McpResult {
    override val message get() = if (count == 1) "1 note" else "$count notes"
}

class NotesToolService : McpToolService() {
    override fun registerHandlers(handlers: ToolHandlers) {
        handlers.register(NotesTools(applicationContext))
            .check("create_note") { call -> if (call.getString("title").isBlank()) "title is blank; give the note a title" else null }
    }
}

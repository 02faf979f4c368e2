// Written by mobilemcp's KSP processor (sdk-ksp) from NotesTools and mcp_capabilities.xml: do not edit.
package io.github.mobilemcp.notes

import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolResult
import io.github.mobilemcp.sdk.ktx.onSuspend

/**
 * Registers the handlers of [tools], the capabilities mcp_capabilities.xml declares:
 * create_note, list_notes, delete_note.
 */
public fun ToolHandlers.register(tools: NotesTools): ToolHandlers {
  on("create_note") { call ->
    val result = tools.createNote(
      title = call.getString("title"),
      body = if (call.has("body")) call.getString("body") else null,
    )
    ToolResult.success(result.message)
      .put("id", result.id)
  }
  on("list_notes") { _ ->
    val result = tools.listNotes()
    ToolResult.success(result.message)
      .put("count", result.count)
      .put("notes", result.notes)
  }
  onSuspend("delete_note") { call ->
    val result = tools.deleteNote(
      id = call.getLong("id"),
    )
    ToolResult.success(result.message)
      .put("id", result.id)
  }
  return this
}

// Written by mobilemcp's KSP processor (sdk-ksp) from NotesTools and mcp_capabilities.xml: do not edit.
package io.github.mobilemcp.notes

import io.github.mobilemcp.sdk.ToolFailure
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
      title = try { call.getString("title") } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument title of create_note is not a required string, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
      body = try { if (call.has("body")) call.getString("body") else null } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument body of create_note is not an optional string, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
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
      id = try { call.getLong("id") } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument id of delete_note is not a required integer, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
    )
    ToolResult.success(result.message)
      .put("id", result.id)
  }
  return this
}

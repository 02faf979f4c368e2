// Written by mobilemcp's KSP processor (sdk-ksp) from CoreTools: do not edit.
package notes.core

import io.github.mobilemcp.sdk.ToolFailure
import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolResult
import io.github.mobilemcp.sdk.ktx.onSuspend

/**
 * Registers the handlers of [tools], which the module that owns the capability descriptor checks:
 * create_note, delete_note.
 */
public fun ToolHandlers.register(tools: CoreTools): ToolHandlers {
  on("create_note") { call ->
    val result = tools.createNote(
      title = try { call.getString("title") } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument title of create_note is not a required string, as the capability descriptor that the app was compiled with declares; build the app again with the descriptor it ships") },
      body = try { if (call.has("body")) call.getString("body") else null } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument body of create_note is not an optional string, as the capability descriptor that the app was compiled with declares; build the app again with the descriptor it ships") },
    )
    ToolResult.success(result.message)
      .put("id", result.id)
  }
  onSuspend("delete_note") { call ->
    val result = tools.deleteNote(
      id = try { call.getLong("id") } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument id of delete_note is not a required integer, as the capability descriptor that the app was compiled with declares; build the app again with the descriptor it ships") },
    )
    ToolResult.success(result.message)
      .put("id", result.id)
  }
  return this
}

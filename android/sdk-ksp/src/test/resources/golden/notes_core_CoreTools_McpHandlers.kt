// Written by mobilemcp's KSP processor (sdk-ksp) from notes.core.CoreTools: do not edit.
package io.github.mobilemcp.generated

import io.github.mobilemcp.sdk.ktx.McpHandlerIndex

/**
 * The @McpTool handlers of [notes.core.CoreTools], for the module that owns the capability descriptor.
 */
@McpHandlerIndex(
  type = "notes.core.CoreTools",
  ids = ["create_note", "delete_note"],
  functions = ["createNote", "deleteNote"],
)
public class notes_core_CoreTools_McpHandlers

// Written by mobilemcp's KSP processor (sdk-ksp) from Everything and mcp_capabilities.xml: do not edit.
package example

import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolResult
import io.github.mobilemcp.sdk.ktx.getLongList
import io.github.mobilemcp.sdk.ktx.getStringList
import io.github.mobilemcp.sdk.ktx.onSuspend

/**
 * Registers the handlers of [tools], the capabilities mcp_capabilities.xml declares:
 * everything, ping.
 */
public fun ToolHandlers.register(tools: Everything): ToolHandlers {
  onSuspend("everything") { call ->
    val result = tools.run(
      text = call.getString("text"),
      count = call.getLong("count"),
      ratio = if (call.has("ratio")) call.getDouble("ratio") else null,
      enabled = if (call.has("on")) call.getBoolean("on") else null,
      options = if (call.has("options")) call.getObject("options") else null,
      tags = call.getStringList("tags"),
      sizes = if (call.has("sizes")) call.getLongList("sizes") else null,
      raw = if (call.has("raw")) call.getArray("raw") else null,
    )
    ToolResult.success(result.message)
      .put("total", result.total.toDouble())
      .put("names", result.names)
      .put("done", result.finished)
  }
  on("ping") { _ ->
    val result = tools.ping()
    ToolResult.success(result)
  }
  return this
}

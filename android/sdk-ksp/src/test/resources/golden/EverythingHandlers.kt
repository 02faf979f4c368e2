// Written by mobilemcp's KSP processor (sdk-ksp) from Everything and mcp_capabilities.xml: do not edit.
package example

import io.github.mobilemcp.sdk.ToolFailure
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
      text = try { call.getString("text") } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument text of everything is not a required string, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
      count = try { call.getLong("count") } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument count of everything is not a required integer, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
      ratio = try { if (call.has("ratio")) call.getDouble("ratio") else null } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument ratio of everything is not an optional number, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
      enabled = try { if (call.has("on")) call.getBoolean("on") else null } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument on of everything is not an optional boolean, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
      options = try { if (call.has("options")) call.getObject("options") else null } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument options of everything is not an optional object, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
      tags = try { call.getStringList("tags") } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument tags of everything is not a required array of string, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
      sizes = try { if (call.has("sizes")) call.getLongList("sizes") else null } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument sizes of everything is not an optional array of integer, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
      raw = try { if (call.has("raw")) call.getArray("raw") else null } catch (e: IllegalArgumentException) { throw ToolFailure.internalError("the argument raw of everything is not an optional array, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships") },
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

package io.github.mobilemcp.sdk.ktx

import android.util.Log
import io.github.mobilemcp.sdk.McpToolService
import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolResult
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.delay

// A tool whose handler suspends, as docs/tool-sdk-java.md shows it; SuspendHandlersTest runs it.
class TimerToolService : McpToolService() {
    override fun registerHandlers(handlers: ToolHandlers) {
        handlers.onSuspend("wait") { call ->
            val millis = call.getLong("millis")
            try {
                delay(millis)
                ToolResult.success("Waited $millis ms").put("millis", millis)
            } catch (e: CancellationException) {
                Log.i("TimerTool", "wait was cancelled after ${call.remainingMillis} ms left")
                throw e
            }
        }
    }
}

package io.github.mobilemcp.sdk.ktx

import android.util.Log
import io.github.mobilemcp.sdk.McpToolService
import io.github.mobilemcp.sdk.ToolFailure
import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolResult
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.delay
import kotlinx.coroutines.yield

// A tool whose handler suspends, as docs/tool-sdk.md shows it; SuspendHandlersTest runs it.
class TimerToolService : McpToolService() {
    override fun registerHandlers(handlers: ToolHandlers) {
        handlers.onSuspend("wait") { call ->
            val millis = call.getLong("millis")
            yield() // a ToolFailure may come from anywhere in the coroutine, after a suspension too
            if (millis < 0) throw ToolFailure.invalidArguments("millis is $millis; give a wait of 0 or more")
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

@file:JvmName("SuspendHandlers")

package io.github.mobilemcp.sdk.ktx

import io.github.mobilemcp.sdk.ToolCall
import io.github.mobilemcp.sdk.ToolFailure
import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolResult
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeoutOrNull

/**
 * Makes the suspending [handler] run [capabilityId], as [ToolHandlers.on] does a handler that
 * blocks:
 *
 * ```
 * handlers.onSuspend("wait") { call ->
 *     delay(call.getLong("millis"))
 *     ToolResult.success("Waited").put("millis", call.getLong("millis"))
 * }
 * ```
 *
 * The handler runs in [runBlocking] on the SDK's worker thread, with the call's time left
 * ([ToolCall.getRemainingMillis]) as its timeout. At the deadline the caller gets the engine's
 * `timeout` reply and the handler is cancelled: the suspending call it is in throws a
 * [kotlinx.coroutines.CancellationException], its `finally` blocks run, and the worker thread is
 * free for the next request as soon as it has unwound. Cancellation reaches only suspending calls:
 * code that blocks the thread runs on unless it checks, so wrap a blocking call in
 * `runInterruptible(Dispatchers.IO) { ... }`, which interrupts it.
 *
 * What the handler returns or throws is the reply as with [ToolHandlers.on]: a [ToolFailure] it
 * throws is that failure. Returns this, to chain calls.
 */
fun ToolHandlers.onSuspend(capabilityId: String, handler: suspend (ToolCall) -> ToolResult): ToolHandlers =
    on(capabilityId) { call ->
        // Cancelled at the deadline, the handler ends in a timeout failure, which the engine
        // answers with its own timeout reply, the same one it sends at the deadline.
        runBlocking { withTimeoutOrNull(call.remainingMillis) { handler(call) } }
            ?: ToolResult.timeout("$capabilityId was cancelled at its deadline")
    }

package io.github.mobilemcp.client.mcp

import android.content.Context
import io.github.mobilemcp.client.ktx.McpClient
import io.modelcontextprotocol.kotlin.sdk.shared.Transport
import io.modelcontextprotocol.kotlin.sdk.shared.TransportSendOptions
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCMessage
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCNotification
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCRequest
import io.modelcontextprotocol.kotlin.sdk.types.RequestId
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.atomic.AtomicBoolean
import kotlin.time.Duration
import kotlin.time.Duration.Companion.minutes
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.Job
import kotlinx.coroutines.SupervisorJob
import kotlinx.coroutines.cancel
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonObject

/**
 * The Mobile-MCP tools on this phone, for an MCP Kotlin SDK `Client` in the same process:
 *
 * ```
 * val client = Client(Implementation(name = "my-assistant", version = "1.0"))
 * client.connect(MobileMcpTransport(context))
 * val tools = client.listTools().tools
 * val result = client.callTool("send_sms", mapOf("to_phone_number" to "+36201234567", "sms_text" to "Hi"))
 * ```
 *
 * Behind it stands the SDK's own `Server`, fed by the client library ([McpClient]): `tools/list`
 * lists every capability of every installed tool under the name [io.github.mobilemcp.client.ToolCatalog]
 * gives it, `tools/call` sends the request through the client library, and the server announces
 * `notifications/tools/list_changed` when an app with tools is installed, updated or removed.
 * Nothing is serialized or leaves the process: the messages go through two channels.
 *
 * A call keeps the client library's guarantees:
 * - its request id is the call's `_meta` [REQUEST_ID_META] (a string), else its progress token if that
 *   is a string, else a fresh one: an MCP call retried with the same id runs once;
 * - when the app asks the user to allow this assistant (`consent_required`), the call waits up to
 *   [consentWait] for the user's decision, telling the client what to tell the user in a progress
 *   notification (when the call has a progress token), and runs once the user allows; otherwise it
 *   ends in a tool error that says so ([Duration.ZERO]: at once, without waiting);
 * - the app's failures are tool results with `isError`, whose text names the `error_code`, the
 *   message and whether calling again is safe (`retry_safe`);
 * - cancelling the MCP request (`notifications/cancelled`) stops the call's wait; a request already
 *   sent to an app is not taken back, and sending it again with the same id gets its reply.
 *
 * One transport is one connection: connect it once, and [close] it (or the client) when done, which
 * also closes the [McpClient] it made.
 */
class MobileMcpTransport @JvmOverloads constructor(
    context: Context,
    private val consentWait: Duration = 2.minutes,
) : Transport {
    init {
        require(!consentWait.isNegative()) { "consentWait must not be negative: $consentWait" }
    }

    private val app: Context = context.applicationContext ?: context
    private val scope = CoroutineScope(SupervisorJob() + Dispatchers.Default)
    private val toServer = Channel<JSONRPCMessage>(Channel.UNLIMITED)
    private val toClient = Channel<JSONRPCMessage>(Channel.UNLIMITED)
    private val started = AtomicBoolean(false)
    private val closed = AtomicBoolean(false)
    private var phone: PhoneServer? = null

    private val callbacks = Callbacks()

    /**
     * Lists the installed tools, starts the server's session on the other end and delivers its
     * messages to the client. The SDK's `connect` calls it; throws IllegalStateException the second time.
     */
    override suspend fun start() {
        check(started.compareAndSet(false, true)) { "a MobileMcpTransport connects once" }
        val server = PhoneServer(McpClient(app), consentWait, scope)
        phone = server
        server.start(ServerEnd())
        scope.launch {
            for (message in toClient) {
                try {
                    callbacks.message(message)
                } catch (e: Exception) {
                    callbacks.error(e)
                }
            }
        }
    }

    /** Hands [message] to the server. */
    override suspend fun send(message: JSONRPCMessage, options: TransportSendOptions?) {
        check(!closed.get()) { "the MobileMcpTransport is closed" }
        toServer.send(message)
    }

    /** Ends the connection: the server stops, calls still waiting end, and the [McpClient] closes. */
    override suspend fun close() {
        if (closed.compareAndSet(false, true)) {
            toServer.close()
            toClient.close()
            phone?.close()
            scope.cancel()
            callbacks.close()
        }
    }

    override fun onClose(block: () -> Unit) = callbacks.onClose(block)

    override fun onError(block: (Throwable) -> Unit) = callbacks.onError(block)

    override fun onMessage(block: suspend (JSONRPCMessage) -> Unit) = callbacks.onMessage(block)

    /**
     * The server's end. Each `tools/call` is handled in a job of its own, so that a call waiting for
     * the user holds up no other message and a `notifications/cancelled` naming it cancels its job;
     * every other message in order.
     */
    private inner class ServerEnd : Transport {
        private val callbacks = Callbacks()
        private val calls = ConcurrentHashMap<JsonElement, Job>()

        override suspend fun start() {
            scope.launch {
                for (message in toServer) {
                    if (message is JSONRPCRequest && message.method == "tools/call") {
                        val id = Sdk.json.encodeToJsonElement(RequestId.serializer(), message.id)
                        val job = scope.launch { deliver(message) }
                        calls[id] = job
                        job.invokeOnCompletion { calls.remove(id, job) }
                    } else {
                        if (message is JSONRPCNotification && message.method == "notifications/cancelled") {
                            (message.params as? JsonObject)?.get("requestId")?.let { calls[it]?.cancel() }
                        }
                        deliver(message)
                    }
                }
                callbacks.close()
            }
        }

        private suspend fun deliver(message: JSONRPCMessage) {
            try {
                callbacks.message(message)
            } catch (e: Exception) {
                if (e is kotlinx.coroutines.CancellationException) throw e
                callbacks.error(e)
            }
        }

        override suspend fun send(message: JSONRPCMessage, options: TransportSendOptions?) {
            if (!closed.get()) toClient.send(message)
        }

        override suspend fun close() {
            this@MobileMcpTransport.close()
        }

        override fun onClose(block: () -> Unit) = callbacks.onClose(block)

        override fun onError(block: (Throwable) -> Unit) = callbacks.onError(block)

        override fun onMessage(block: suspend (JSONRPCMessage) -> Unit) = callbacks.onMessage(block)
    }

    /**
     * One end's callbacks, as the SDK sets them: each registration runs after the ones before it.
     */
    private class Callbacks {
        @Volatile var message: suspend (JSONRPCMessage) -> Unit = {}
        @Volatile var close: () -> Unit = {}
        @Volatile var error: (Throwable) -> Unit = {}

        fun onMessage(block: suspend (JSONRPCMessage) -> Unit) {
            val old = message
            message = { old(it); block(it) }
        }

        fun onClose(block: () -> Unit) {
            val old = close
            close = { old(); block() }
        }

        fun onError(block: (Throwable) -> Unit) {
            val old = error
            error = { old(it); block(it) }
        }
    }

    companion object {
        /**
         * The key of a call's `_meta` whose string value is the Mobile-MCP request id: a call made
         * again with the same one is the same request, which the app runs once.
         */
        const val REQUEST_ID_META: String = "io.github.mobilemcp/request_id"
    }
}

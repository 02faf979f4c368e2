package io.github.mobilemcp.client.ktx

import android.annotation.TargetApi
import android.app.PendingIntent
import android.content.BroadcastReceiver
import android.content.Context
import android.content.Intent
import android.content.IntentFilter
import android.os.Build
import io.github.mobilemcp.client.CallTimeoutException
import io.github.mobilemcp.Consent
import io.github.mobilemcp.client.Discovery
import io.github.mobilemcp.client.MobileMcpClient
import io.github.mobilemcp.client.Reply
import io.github.mobilemcp.client.Request
import io.github.mobilemcp.client.Tool
import java.io.Closeable
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.callbackFlow
import kotlinx.coroutines.flow.distinctUntilChangedBy
import kotlinx.coroutines.future.await
import kotlinx.coroutines.launch
import kotlinx.coroutines.withContext
import kotlinx.serialization.json.JsonObject

/**
 * An assistant's side of Mobile-MCP in Kotlin: the [MobileMcpClient] of [context]'s app, with
 * suspending calls that never block the calling thread, the main thread included, and that a
 * coroutine's cancellation abandons.
 *
 * ```
 * McpClient(context).use { mcp ->
 *     val notes = mcp.discover().tools().first { it.packageName() == "io.github.mobilemcp.notes" }
 *     val reply = mcp.send(mcp.request(notes, "create_note", mapOf("title" to "Milk")))
 * }
 * ```
 *
 * A [Request] keeps its request id: sending it again is a retry that a mobilemcp tool answers with
 * the first run's reply, so it never runs twice. [client] is the Java client underneath, for what
 * this class does not wrap (the model catalog, [io.github.mobilemcp.client.ToolCatalog]).
 */
class McpClient(context: Context) : Closeable {
    private val app: Context = context.applicationContext ?: context

    /** The Java client this one calls; [close] closes it. */
    val client: MobileMcpClient = MobileMcpClient(app)

    /**
     * The tools on the phone ([MobileMcpClient.discover]), read on [Dispatchers.IO]: it reads
     * other apps' resources.
     */
    suspend fun discover(): Discovery = withContext(Dispatchers.IO) { client.discover() }

    /**
     * The tools on the phone now, and again whenever an app is installed, updated or removed
     * (Android's package broadcasts), each list once: an unchanged one is not sent again. It
     * listens while it is collected. On Android 11+ the app sees the tools its manifest's
     * `<queries>` names, and hears of those apps only.
     */
    fun tools(): Flow<List<Tool>> = callbackFlow {
        val changed = Channel<Unit>(Channel.CONFLATED)
        val receiver = object : BroadcastReceiver() {
            override fun onReceive(context: Context, intent: Intent) {
                changed.trySend(Unit)
            }
        }
        registerForPackages(receiver)
        changed.trySend(Unit)
        launch {
            for (change in changed) {
                send(discover().tools())
            }
        }
        awaitClose { app.unregisterReceiver(receiver) }
    }.distinctUntilChangedBy { tools -> tools.map(::signature) }

    private fun registerForPackages(receiver: BroadcastReceiver) {
        val filter = IntentFilter().apply {
            addAction(Intent.ACTION_PACKAGE_ADDED)
            addAction(Intent.ACTION_PACKAGE_REPLACED)
            addAction(Intent.ACTION_PACKAGE_CHANGED)
            addAction(Intent.ACTION_PACKAGE_REMOVED)
            addDataScheme("package")
        }
        if (Build.VERSION.SDK_INT >= 33) {
            registerNotExported(receiver, filter)
        } else {
            app.registerReceiver(receiver, filter)
        }
    }

    // Only the system sends package broadcasts, and they reach a receiver that is not exported.
    @TargetApi(33)
    private fun registerNotExported(receiver: BroadcastReceiver, filter: IntentFilter) {
        app.registerReceiver(receiver, filter, Context.RECEIVER_NOT_EXPORTED)
    }

    /**
     * A request for [capabilityId] of [tool] with [arguments]: strings, numbers, booleans, null,
     * maps, lists, JSON elements ([toJsonObject]; IllegalArgumentException, naming the argument, for
     * anything else). Nothing is sent until [send].
     */
    fun request(tool: Tool, capabilityId: String, arguments: Map<String, Any?> = emptyMap()): Request =
        client.request(tool, capabilityId, arguments.toJsonObject().toJSONObject())

    /** A request for [capabilityId] of [tool] with [arguments] as kotlinx.serialization JSON. Nothing is sent until [send]. */
    fun request(tool: Tool, capabilityId: String, arguments: JsonObject): Request =
        client.request(tool, capabilityId, arguments.toJSONObject())

    /**
     * Sends [request], as Java's [Request.send] does, and returns the tool's [Reply], failures
     * included ([Reply.errorCode]). Throws a [CallTimeoutException] when no reply came within
     * [timeout], the client's own timeout: the tool may have run it, so send the same request
     * again, which never runs it twice. Its default is the request's ([Request.timeoutMillis]): the
     * tool's own deadline for the capability and 10 s more,
     * so the tool's `timeout` reply comes first. Throws [io.github.mobilemcp.client.MobileMcpException]
     * when the tool cannot be reached. Cancelling the coroutine abandons the call; the tool may
     * still act on it.
     */
    // Named for the JVM: a Duration parameter (an inline class) would have Kotlin mangle the name.
    @JvmName("send")
    suspend fun send(request: Request, timeout: Duration = request.timeoutMillis().milliseconds): Reply =
        request.withTimeoutMillis(timeout.inWholeMilliseconds).send().await()

    /**
     * A new [request] of [capabilityId], sent at once with the default timeout: for calls the
     * assistant will not retry. Returns and throws as `send(request)` does.
     */
    suspend fun send(tool: Tool, capabilityId: String, arguments: Map<String, Any?> = emptyMap()): Reply =
        send(request(tool, capabilityId, arguments))

    /**
     * The user's decision about this app from [tool], after a [Reply.isConsentPending]: [Consent.ALLOWED]
     * or [Consent.DENIED] when the user decides (at once if they have), [Consent.DISMISSED] when they
     * put the question away, [Consent.WAITING] when [timeout] passes. Then send the refused request
     * again. Throws
     * [io.github.mobilemcp.client.MobileMcpException] when the tool cannot be bound or the client is
     * closed, IllegalArgumentException unless [timeout] is positive. Cancelling the coroutine stops
     * the wait.
     */
    @JvmName("awaitConsent")
    suspend fun awaitConsent(tool: Tool, timeout: Duration): Consent =
        client.awaitConsent(tool, timeout.inWholeMilliseconds).await()

    /**
     * The PendingIntent that opens [tool]'s question about this app ([MobileMcpClient.consentQuestion]).
     * Throws [io.github.mobilemcp.client.MobileMcpException] when the tool does not offer one, cannot
     * be bound or does not answer within 10 seconds.
     */
    suspend fun consentQuestion(tool: Tool): PendingIntent = client.consentQuestion(tool).await()

    /** Closes [client]: calls still waiting fail. */
    override fun close() = client.close()

    private companion object {
        /** What tells two discoveries of a tool apart. */
        fun signature(tool: Tool): String =
            "$tool ${tool.name()} ${tool.description()} " + tool.capabilities().joinToString { it.toMcpTool().toString() }
    }
}

package io.github.mobilemcp.client.mcp

import io.github.mobilemcp.Consent
import io.github.mobilemcp.client.CallTimeoutException
import io.github.mobilemcp.client.Param
import io.github.mobilemcp.client.Reply
import io.github.mobilemcp.client.Request
import io.github.mobilemcp.client.Tool
import io.github.mobilemcp.client.ToolCatalog
import io.github.mobilemcp.client.ktx.McpClient
import io.modelcontextprotocol.kotlin.sdk.server.ClientConnection
import io.modelcontextprotocol.kotlin.sdk.server.Server
import io.modelcontextprotocol.kotlin.sdk.server.ServerOptions
import io.modelcontextprotocol.kotlin.sdk.shared.Transport
import io.modelcontextprotocol.kotlin.sdk.types.CallToolRequest
import io.modelcontextprotocol.kotlin.sdk.types.CallToolResult
import io.modelcontextprotocol.kotlin.sdk.types.Implementation
import io.modelcontextprotocol.kotlin.sdk.types.ProgressNotification
import io.modelcontextprotocol.kotlin.sdk.types.ServerCapabilities
import io.modelcontextprotocol.kotlin.sdk.types.Tool as McpTool
import java.util.concurrent.CompletableFuture
import java.util.concurrent.atomic.AtomicReference
import kotlin.time.Duration
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.future.await
import kotlinx.coroutines.launch
import kotlinx.serialization.KSerializer
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.buildJsonArray
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.contentOrNull
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.put

/**
 * The MCP Kotlin SDK's data classes, made from JSON with their own serializers and read as JSON:
 * their constructors and properties change between SDK releases, their JSON does not, so this
 * library runs on the SDK its user's build picks.
 */
internal object Sdk {
    val json = Json { ignoreUnknownKeys = true; explicitNulls = false }

    fun <T> decode(serializer: KSerializer<T>, element: JsonElement): T = json.decodeFromJsonElement(serializer, element)

    fun <T> encode(serializer: KSerializer<T>, value: T): JsonObject = json.encodeToJsonElement(serializer, value).jsonObject
}

/**
 * The SDK's `Server` with the phone's tools: [start] lists them and keeps the list as apps come and
 * go, each `tools/call` goes through [mcp].
 */
internal class PhoneServer(
    private val mcp: McpClient,
    private val consentWait: Duration,
    private val scope: CoroutineScope,
) {
    private val server = Server(
        Sdk.decode(Implementation.serializer(), buildJsonObject { put("name", "mobilemcp"); put("version", VERSION) }),
        ServerOptions(Sdk.decode(ServerCapabilities.serializer(), buildJsonObject {
            put("tools", buildJsonObject { put("listChanged", true) })
        })),
    )
    private val catalog = AtomicReference(ToolCatalog.of(emptyList()))
    /** The MCP tools listed now, by name, as JSON: what tells a changed tool from an unchanged one. */
    private val listed = HashMap<String, JsonObject>()

    /** Lists the tools installed now, then connects the session to [serverEnd] and follows installs. */
    suspend fun start(serverEnd: Transport) {
        update(mcp.discover().tools())
        server.createSession(serverEnd)
        scope.launch {
            mcp.tools().collect { update(it) }
        }
    }

    /** Makes the server's tools those of [tools]: the server announces the change. */
    @Synchronized
    private fun update(tools: List<Tool>) {
        val next = ToolCatalog.of(tools)
        val wanted = next.entries().associate { it.name() to mcpTool(it) }
        catalog.set(next)
        val gone = listed.keys.filter { wanted[it] != listed[it] }
        if (gone.isNotEmpty()) {
            server.removeTools(gone)
            gone.forEach { listed.remove(it) }
        }
        for ((name, tool) in wanted) {
            if (name !in listed) {
                server.addTool(Sdk.decode(McpTool.serializer(), tool)) { request -> call(request) }
                listed[name] = tool
            }
        }
    }

    suspend fun close() {
        try {
            server.close()
        } finally {
            mcp.close()
        }
    }

    /** A tool's MCP description: its name, title and description as the catalog gives them, its schemas and hints. */
    private fun mcpTool(entry: ToolCatalog.Entry): JsonObject {
        val capability = entry.capability()
        val described = Sdk.json.parseToJsonElement(capability.toMcpTool().toString()).jsonObject
        return buildJsonObject {
            put("name", entry.name())
            put("title", "${capability.title() ?: capability.id()} (${entry.tool().packageName()})")
            put("description", entry.description())
            described["inputSchema"]?.let { put("inputSchema", it) }
            if (capability.outputs().isNotEmpty()) {
                put("outputSchema", outputSchema(capability.outputs()))
            }
            described["annotations"]?.let { put("annotations", it) }
        }
    }

    private fun outputSchema(outputs: List<Param>): JsonObject = buildJsonObject {
        put("type", "object")
        put("properties", buildJsonObject {
            for (p in outputs) {
                put(p.name(), buildJsonObject {
                    put("type", p.type())
                    if (p.description().isNotEmpty()) put("description", p.description())
                })
            }
        })
        put("required", buildJsonArray { outputs.forEach { add(JsonPrimitive(it.name())) } })
    }

    /** Runs an MCP call of a tool through the client library. */
    private suspend fun ClientConnection.call(call: CallToolRequest): CallToolResult {
        val params = Sdk.encode(CallToolRequest.serializer(), call)["params"]?.jsonObject ?: JsonObject(emptyMap())
        val name = (params["name"] as? JsonPrimitive)?.contentOrNull ?: ""
        val entry = catalog.get().entry(name)
            ?: return result(error = true, text = "There is no tool named $name on the phone now: list the tools again.")
        val meta = params["_meta"] as? JsonObject
        val progressToken = meta?.get("progressToken")?.takeIf { it !is JsonNull }
        val id = (meta?.get(MobileMcpTransport.REQUEST_ID_META) as? JsonPrimitive)?.takeIf { it.isString }?.content
            ?: (progressToken as? JsonPrimitive)?.takeIf { it.isString }?.content
        val arguments = params["arguments"] as? JsonObject ?: JsonObject(emptyMap())
        var request = try {
            mcp.request(entry.tool(), entry.capability().id(), arguments)
        } catch (e: IllegalArgumentException) {
            return result(error = true, text = e.message ?: "invalid arguments")
        }
        if (!id.isNullOrEmpty()) request = request.withId(id)

        return try {
            var reply = sendOnce(request)
            if (reply.isConsentPending && consentWait.isPositive()) {
                val ask = "The app ${entry.tool().packageName()} is asking the user to allow this assistant to use " +
                    "${entry.name()}; nothing was done yet. Tell the user to answer the app's question."
                progressToken?.let { progress(it, 0, ask) }
                val consent = mcp.awaitConsent(entry.tool(), consentWait)
                if (consent == Consent.ALLOWED) {
                    progressToken?.let { progress(it, 1, "The user allowed it; the call runs now.") }
                    reply = sendOnce(request)
                }
            }
            toResult(entry, reply)
        } catch (e: CancellationException) {
            throw e
        } catch (e: Exception) {
            result(error = true, text = entry.result(e).toString())
        }
    }

    /**
     * Sends [request] and waits for its reply, sending the same request once more after the client's
     * timeout (which never runs it twice). Cancelling stops the wait, never the send.
     */
    private suspend fun sendOnce(request: Request): Reply = try {
        waitFor(request.send())
    } catch (e: CallTimeoutException) {
        waitFor(request.send())
    }

    /** The value of [future]; cancelling the wait leaves [future] alone. */
    private suspend fun <T> waitFor(future: CompletableFuture<T>): T =
        try {
            future.thenApply { it }.await()
        } catch (e: java.util.concurrent.CompletionException) {
            throw e.cause ?: e
        }

    private suspend fun ClientConnection.progress(token: JsonElement, progress: Int, message: String) {
        val notification = Sdk.decode(ProgressNotification.serializer(), buildJsonObject {
            put("method", "notifications/progress")
            put("params", buildJsonObject {
                put("progressToken", token)
                put("progress", progress)
                put("total", 1)
                put("message", message)
            })
        })
        notification(notification, null)
    }

    /** The MCP result of [reply]: the catalog's result as text, the outputs as structured content. */
    private fun toResult(entry: ToolCatalog.Entry, reply: Reply): CallToolResult {
        val result = entry.result(reply)
        if (!reply.isSuccess) {
            return result(error = true, text = result.toString())
        }
        val outputs = Sdk.json.parseToJsonElement(result.optJSONObject("outputs")?.toString() ?: "{}")
        return result(error = false, text = result.toString(), structured = outputs as JsonObject)
    }

    private fun result(error: Boolean, text: String, structured: JsonObject? = null): CallToolResult =
        Sdk.decode(CallToolResult.serializer(), buildJsonObject {
            put("content", buildJsonArray {
                add(buildJsonObject { put("type", "text"); put("text", text) })
            })
            if (structured != null) put("structuredContent", structured)
            if (error) put("isError", true)
        })

    private companion object {
        /** The server's version in its MCP `serverInfo`. */
        const val VERSION = "0.1.0"
    }
}

package io.github.mobilemcp.app

import io.github.mobilemcp.client.CallTimeoutException
import io.github.mobilemcp.Consent
import io.github.mobilemcp.client.ToolCatalog
import io.github.mobilemcp.client.ktx.McpClient
import kotlin.time.Duration
import kotlin.time.Duration.Companion.minutes
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CancellationException
import kotlinx.serialization.json.JsonObject
import org.json.JSONObject

/**
 * The phone's tools as a model's functions. [refresh] lists them for the model; [call] runs the
 * model's call: it waits for the user's consent when the app asks for it, and retries the same
 * request after a timeout, which never runs it twice.
 */
class PhoneFunctions(private val mcp: McpClient, private val patience: Duration = 20.seconds) {
    var catalog: ToolCatalog = ToolCatalog.of(emptyList())
        private set

    /** Finds the tools again; hand the model catalog.openAiStrictTools(), anthropicTools() or geminiFunctionDeclarations(). */
    suspend fun refresh(): ToolCatalog {
        catalog = ToolCatalog.of(mcp.discover().tools())
        return catalog
    }

    /** Runs the model's call of [name] with [arguments] and returns the result to give it back. */
    suspend fun call(name: String, arguments: JsonObject): JSONObject {
        val function = catalog.entry(name) ?: return JSONObject().put("error", "there is no function $name")
        val request = mcp.request(function.tool(), function.capability().id(), arguments)
        return try {
            var reply = try {
                mcp.send(request, patience)
            } catch (e: CallTimeoutException) {
                mcp.send(request) // the same request: the app answers with the first run's reply
            }
            if (reply.isConsentPending && mcp.awaitConsent(function.tool(), 2.minutes) == Consent.ALLOWED) {
                reply = mcp.send(request)
            }
            function.result(reply)
        } catch (e: CancellationException) {
            throw e
        } catch (e: Exception) {
            function.result(e) // the app could not be reached, or no reply came twice
        }
    }
}

@file:JvmName("McpJson")

package io.github.mobilemcp.client.ktx

import io.github.mobilemcp.client.Reply
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonArray
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonNull
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.JsonPrimitive
import kotlinx.serialization.json.decodeFromJsonElement
import kotlinx.serialization.json.jsonArray
import kotlinx.serialization.json.jsonObject
import kotlinx.serialization.json.jsonPrimitive
import org.json.JSONObject

/** The JSON that [outputs] decodes with: outputs the class does not declare are skipped. */
val OutputDecoding: Json = Json { ignoreUnknownKeys = true }

/**
 * The reply's outputs as one JSON object, name to value, in the order the tool sent them; `{}`
 * for a failure.
 */
val Reply.outputsJson: JsonObject
    get() {
        val response = Json.parseToJsonElement(json()).jsonObject["mobile-mcp-response"]?.jsonObject?.get("response")?.jsonObject
        val output = (response?.get("capability") as? JsonObject)?.get("output") as? JsonArray ?: return JsonObject(emptyMap())
        return JsonObject(output.associate { v ->
            val o = v.jsonObject
            o.getValue("name").jsonPrimitive.content to (o["value"] ?: JsonNull)
        })
    }

/**
 * The reply's outputs decoded as [T], a `@Serializable` class whose properties are the outputs
 * the assistant needs:
 *
 * ```
 * @Serializable data class Notes(val count: Int, val notes: List<Note>)
 * val notes = reply.outputs<Notes>()
 * ```
 *
 * Throws [kotlinx.serialization.SerializationException] when the outputs do not fit [T].
 */
inline fun <reified T> Reply.outputs(json: Json = OutputDecoding): T = json.decodeFromJsonElement(outputsJson)

/**
 * Arguments as JSON: strings, numbers, booleans, null, maps with string keys, lists, arrays and
 * JSON elements. Throws IllegalArgumentException, naming the argument, for anything else.
 */
fun Map<String, Any?>.toJsonObject(): JsonObject = JsonObject(mapValues { (name, value) -> element(name, value) })

private fun element(name: String, value: Any?): JsonElement = when (value) {
    null -> JsonNull
    is JsonElement -> value
    is String -> JsonPrimitive(value)
    is Number -> JsonPrimitive(value)
    is Boolean -> JsonPrimitive(value)
    is Map<*, *> -> JsonObject(value.entries.associate { (k, v) ->
        require(k is String) { "argument $name has a key that is not a string: $k" }
        k to element("$name.$k", v)
    })
    is Iterable<*> -> JsonArray(value.mapIndexed { i, v -> element("$name[$i]", v) })
    is Array<*> -> JsonArray(value.mapIndexed { i, v -> element("$name[$i]", v) })
    else -> throw IllegalArgumentException(
        "argument $name is a ${value.javaClass.name}; give a string, number, boolean, null, map, list or JSON element")
}

/** The JSON object as org.json reads it, for the Java client ([io.github.mobilemcp.client.MobileMcpClient.request]). */
fun JsonObject.toJSONObject(): JSONObject = JSONObject(toString())

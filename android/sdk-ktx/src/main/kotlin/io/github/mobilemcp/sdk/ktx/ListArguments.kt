@file:JvmName("ListArguments")

package io.github.mobilemcp.sdk.ktx

import io.github.mobilemcp.sdk.ToolCall
import org.json.JSONArray
import org.json.JSONObject

/**
 * The array argument [name], whose descriptor param says `mcp:items="string"`, as a list:
 *
 * ```
 * val tags: List<String> = call.getStringList("tags")
 * ```
 *
 * IllegalArgumentException, naming the argument, when it was not given or is not an array of
 * strings, as [ToolCall.getArray] does; the handler's caller then gets `internal_error`. The
 * code that mobilemcp's KSP processor generates reads arrays with these getters.
 */
fun ToolCall.getStringList(name: String): List<String> = list(name, "string") { it as? String }

/** The array argument [name] (`mcp:items="integer"`) as a list; see [getStringList]. */
fun ToolCall.getLongList(name: String): List<Long> =
    list(name, "integer") { v ->
        when (v) {
            is Double, is Float -> (v as Number).toDouble().takeIf { it % 1.0 == 0.0 }?.toLong() // 3.0 is the integer 3
            is Number -> v.toLong()
            else -> null
        }
    }

/** The array argument [name] (`mcp:items="number"`) as a list; see [getStringList]. */
fun ToolCall.getDoubleList(name: String): List<Double> = list(name, "number") { (it as? Number)?.toDouble() }

/** The array argument [name] (`mcp:items="boolean"`) as a list; see [getStringList]. */
fun ToolCall.getBooleanList(name: String): List<Boolean> = list(name, "boolean") { it as? Boolean }

/** The array argument [name] (`mcp:items="object"`) as a list; see [getStringList]. */
fun ToolCall.getObjectList(name: String): List<JSONObject> = list(name, "object") { it as? JSONObject }

/** The array argument [name] (`mcp:items="array"`) as a list; see [getStringList]. */
fun ToolCall.getArrayList(name: String): List<JSONArray> = list(name, "array") { it as? JSONArray }

private fun <T> ToolCall.list(name: String, items: String, item: (Any?) -> T?): List<T> {
    val array: JSONArray = getArray(name)
    return List(array.length()) { i ->
        val v = array.opt(i)
        item(v) ?: throw IllegalArgumentException(
            "element $i of the argument $name of $capabilityId is ${if (v == null || v == JSONObject.NULL) "null" else "a " + v.javaClass.simpleName}, not a $items; " +
                "the descriptor's mcp:items and the handler's list type must agree")
    }
}

package io.github.mobilemcp.notes

import io.github.mobilemcp.client.Capability
import io.github.mobilemcp.client.Param
import io.github.mobilemcp.client.Reply
import io.github.mobilemcp.client.Tool
import io.github.mobilemcp.ErrorCode
import io.github.mobilemcp.sdk.McpToolService
import io.github.mobilemcp.sdk.ToolCall
import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.ToolResult
import io.github.mobilemcp.sdk.testing.SettingsScreen
import io.github.mobilemcp.sdk.testing.McpTestRunner
import io.github.mobilemcp.sdk.testing.McpToolRule
import java.util.concurrent.CompletableFuture
import kotlin.reflect.KType
import kotlin.reflect.typeOf
import org.json.JSONArray
import org.json.JSONObject
import org.junit.Assert.assertEquals
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith

/**
 * Kotlin reads the Tool SDK, the client library and the testing library with their JSpecify
 * nullness: `String` where the API never gives null, so no `!!`, and `String?` where it may, so the
 * compiler asks for `?.` or `?:`. Never a platform type (`String!`), which allows both and checks
 * neither. Kotlin 2.2 reports a mismatch as an error, so this file compiles only while the API says
 * what these lines rely on.
 */
@RunWith(McpTestRunner::class)
class KotlinNullnessTest {
    @get:Rule val tool = McpToolRule(ArgumentsToolService::class.java).withDescriptor(R.xml.mcp_capabilities)

    /** The notes descriptor's tool, whose create_note reads its arguments as Kotlin sees them, and says so. */
    class ArgumentsToolService : McpToolService() {
        override fun registerHandlers(handlers: ToolHandlers) {
            handlers.on("create_note") { call ->
                val title: String = call.getString("title")
                val body: String = call.getString("body", "") // the fallback's type: String
                val color: String? = call.getString("color", null) // no such argument: the null fallback
                val caller: String = call.getCallerPackage()
                val options: JSONObject? = call.getObject("extra", null) // the null fallback: JSONObject?
                val extra = options?.length() ?: 0
                ToolResult.success("$title, ${body.length} characters, color ${color ?: "none"}, $extra extra, from $caller")
                    .put("id", title.length)
            }
            handlers.check("create_note") { call -> if (call.getString("title").isBlank()) "title is blank" else null }
            handlers.on("list_notes") { _ -> ToolResult.success("0 notes").put("count", 0).put("notes", JSONArray()) }
            handlers.on("delete_note") { call ->
                ToolResult.invalidArguments("there is no note ${call.getLong("id")}")
            }
        }
    }

    @Test fun handlersReadTheirArgumentsWithoutBangs() {
        val reply = tool.call("create_note", """{"title":"Milk","body":"2 l"}""")
        val success: Boolean = reply.isSuccess()
        val json: String = reply.json()
        val id: Long = reply.getLong("id")
        assertEquals(true, success)
        assertEquals(4L, id)
        assertEquals("Milk, 3 characters, color none, 0 extra, from io.github.mobilemcp.notes", reply.message())
        assertEquals(true, Reply.fromJson(json).isSuccess())
    }

    @Test fun repliesAreNullableOnlyWhereTheyMayBeNull() {
        val ok = tool.call("list_notes", "{}")
        val failed = tool.call("delete_note", """{"id":7}""")
        assertEquals("none", ok.errorCode()?.wireName() ?: "none")
        assertEquals(ErrorCode.INVALID_ARGUMENTS, failed.errorCode() ?: ErrorCode.OTHER)
        assertEquals(18, failed.message()?.length)
        val notes: String = ok.getArray("notes").toString()
        assertEquals("[]", notes)
        assertEquals(0, ok.outputs()["count"])
        assertEquals("title is blank", tool.call("create_note", """{"title":" "}""").message())
    }

    /** A getter and setter pair that Kotlin reads as one property: isX with setX. */
    @Test fun theDeveloperSwitchIsAKotlinProperty() {
        val mcp = tool.settings()
        assertEquals(false, mcp.isDeveloperSwitchOn)
        mcp.isDeveloperSwitchOn = true
        assertEquals(true, mcp.isDeveloperSwitchOn)
        mcp.isDeveloperSwitchOn = false
        assertEquals(false, mcp.isDeveloperSwitchOn)
    }

    @Test fun kotlinSeesJSpecifysNullnessNotPlatformTypes() {
        assertEquals(
            linkedMapOf(
                "Reply.message()" to NULLABLE,
                "Reply.errorCode()" to NULLABLE,
                "Reply.id()" to NULLABLE,
                "Reply.capabilityId()" to NULLABLE,
                "Reply.outputs() values" to NULLABLE,
                "Reply.json()" to NON_NULL,
                "Reply.getString(name)" to NON_NULL,
                "Tool.capability(id)" to NULLABLE,
                "Tool.capabilities() elements" to NON_NULL,
                "Capability.title()" to NULLABLE,
                "Capability.Hints.readOnly()" to NULLABLE,
                "Capability.description()" to NON_NULL,
                "Param.pattern()" to NON_NULL,
                "ToolCall.getObject(name)" to NON_NULL,
                "ToolCall.getObject(name, null)" to NULLABLE,
                "ToolCall.getArray(name)" to NON_NULL,
                "ToolCall.getString(name, null)" to NULLABLE,
                "ToolCall.getString(name, \"\")" to NON_NULL,
                "ToolCall.getString(name)" to NON_NULL,
                "ToolCall.getCallerPackage()" to NON_NULL,
                "ToolResult.errorCode()" to NULLABLE,
                "ToolResult.message()" to NON_NULL,
                "SettingsScreen.row(pkg)" to NULLABLE,
                "McpToolRule.call(id, args)" to NON_NULL,
                "McpToolRule.await(a future of String?)" to NULLABLE,
            ),
            linkedMapOf(
                "Reply.message()" to nullness(resultType { r: Reply -> r.message() }),
                "Reply.errorCode()" to nullness(resultType { r: Reply -> r.errorCode() }),
                "Reply.id()" to nullness(resultType { r: Reply -> r.id() }),
                "Reply.capabilityId()" to nullness(resultType { r: Reply -> r.capabilityId() }),
                "Reply.outputs() values" to nullness(resultType { r: Reply -> r.outputs() }.arguments[1].type!!),
                "Reply.json()" to nullness(resultType { r: Reply -> r.json() }),
                "Reply.getString(name)" to nullness(resultType { r: Reply -> r.getString("title") }),
                "Tool.capability(id)" to nullness(resultType { t: Tool -> t.capability("create_note") }),
                "Tool.capabilities() elements" to nullness(resultType { t: Tool -> t.capabilities() }.arguments[0].type!!),
                "Capability.title()" to nullness(resultType { c: Capability -> c.title() }),
                "Capability.Hints.readOnly()" to nullness(resultType { c: Capability -> c.hints().readOnly() }),
                "Capability.description()" to nullness(resultType { c: Capability -> c.description() }),
                "Param.pattern()" to nullness(resultType { p: Param -> p.pattern() }),
                "ToolCall.getObject(name)" to nullness(resultType { c: ToolCall -> c.getObject("extra") }),
                "ToolCall.getObject(name, null)" to nullness(resultType { c: ToolCall -> c.getObject<JSONObject?>("extra", null) }),
                "ToolCall.getArray(name)" to nullness(resultType { c: ToolCall -> c.getArray("tags") }),
                "ToolCall.getString(name, null)" to nullness(resultType { c: ToolCall -> c.getString("body", null) }),
                "ToolCall.getString(name, \"\")" to nullness(resultType { c: ToolCall -> c.getString("body", "") }),
                "ToolCall.getString(name)" to nullness(resultType { c: ToolCall -> c.getString("title") }),
                "ToolCall.getCallerPackage()" to nullness(resultType { c: ToolCall -> c.getCallerPackage() }),
                "ToolResult.errorCode()" to nullness(resultType { r: ToolResult -> r.errorCode() }),
                "ToolResult.message()" to nullness(resultType { r: ToolResult -> r.message() }),
                "SettingsScreen.row(pkg)" to nullness(resultType { s: SettingsScreen -> s.row("com.example") }),
                "McpToolRule.call(id, args)" to nullness(resultType { t: McpToolRule -> t.call("list_notes", "{}") }),
                "McpToolRule.await(a future of String?)" to nullness(resultType { t: McpToolRule -> t.await(CompletableFuture<String?>()) }),
            ),
        )
    }

    private companion object {
        const val NULLABLE = "nullable (T?)"
        const val NON_NULL = "non-null (T)"
        const val PLATFORM = "platform (T!)"

        /** The type Kotlin gives what f returns; f is not called. */
        inline fun <A, reified R> resultType(@Suppress("UNUSED_PARAMETER") f: (A) -> R): KType = typeOf<R>()

        /**
         * Whether Kotlin takes type as nullable, non-null, or as a platform type, which is what it
         * makes of Java without nullness annotations (its text ends in "!").
         */
        fun nullness(type: KType): String = when {
            type.isMarkedNullable -> NULLABLE
            type.toString().removeSuffix(" (Kotlin reflection is not available)").endsWith("!") -> PLATFORM
            else -> NON_NULL
        }
    }
}

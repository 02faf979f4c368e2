package io.github.mobilemcp.app

import ai.koog.agents.core.agent.AIAgent
import ai.koog.agents.core.tools.Tool
import ai.koog.agents.mcp.McpToolRegistryProvider
import ai.koog.agents.mcp.metadata.McpServerInfo
import ai.koog.agents.testing.tools.getMockExecutor
import ai.koog.prompt.executor.clients.openai.OpenAIModels
import ai.koog.serialization.JSONObject
import ai.koog.serialization.kotlinx.toKoogJSONElement
import android.app.Activity
import io.github.mobilemcp.client.mcp.MobileMcpTransport
import io.github.mobilemcp.notes.NotesToolService
import io.github.mobilemcp.sdk.ToolSettings
import io.github.mobilemcp.sdk.internal.InternalApi
import io.github.mobilemcp.sdk.testing.McpTestRunner
import io.github.mobilemcp.sdk.testing.internal.WireRule
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.cancel
import kotlinx.coroutines.future.asCompletableFuture
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.annotation.Config
import org.robolectric.shadows.ShadowLog

/**
 * A Koog agent whose tools are the phone's, through MobileMcpTransport and Koog's
 * McpToolRegistryProvider, on Koog's scripted prompt executor (no network): one task across the SMS
 * app and the notes sample, the SMS app's consent question answered by the user's tap.
 */
@RunWith(McpTestRunner::class)
@Config(shadows = [RecordingSmsManager::class])
@OptIn(InternalApi::class) // WireRule, the SDK's own wire kit, plays the SMS app's other side
class KoogAgentTest {
    @get:Rule val agent = WireRule(ToolService::class.java).withoutConsent()
    private val phone = Phone()
    private val host = ToolHost(agent.app())
    private val notes = OtherApp(agent.app(), "io.github.mobilemcp.notes", "Notes")
    private val scope = CoroutineScope(Dispatchers.Default)

    @After fun tearDown() {
        scope.cancel(); notes.stopTool(); host.close()
    }

    @Suppress("UNCHECKED_CAST")
    @Test fun anAgentTextsAndTakesANote() {
        RecordingSmsManager.SENDS.clear()
        notes.install(NotesToolService::class.java, "Notes", R.xml.notes_capabilities)
        host.serve(notes)
        ToolSettings.get(notes).allow(agent.app().packageName)

        val registry = host.await(scope.async {
            McpToolRegistryProvider.fromTransport(MobileMcpTransport(agent.app()), McpServerInfo(command = "in-process"))
        }.asCompletableFuture())
        assertEquals(listOf("create_note", "delete_note", "get_sms_subscriptions", "list_notes", "send_sms"),
            registry.tools.map { it.name }.sorted())

        val sendSms = registry.getTool("send_sms") as Tool<JSONObject, *>
        val createNote = registry.getTool("create_note") as Tool<JSONObject, *>
        val sms = buildJsonObject { put("to_phone_number", "+36201234567"); put("sms_text", "Buying milk"); put("subscription_id", 14) }
        val note = buildJsonObject { put("title", "Milk") }
        val executor = getMockExecutor {
            mockLLMToolCall(sendSms, sms.toKoogJSONElement() as JSONObject) onRequestEquals "Tell Anna I'm buying milk, and note it"
            mockLLMToolCall(createNote, note.toKoogJSONElement() as JSONObject) onRequestContains "SMS sent to +36201234567"
            mockLLMAnswer("Anna knows, and the note is there.") onRequestContains "Created note 1"
        }
        val koog = AIAgent(promptExecutor = executor, llmModel = OpenAIModels.Chat.GPT4o, toolRegistry = registry)
        val answer = scope.async { koog.run("Tell Anna I'm buying milk, and note it") }.asCompletableFuture()

        // The SMS app asks the user first; the user taps Allow; the radio sends the SMS.
        host.idleUntil("the SMS app to ask the user") {
            ShadowLog.getLogsForTag("MobileMCP").any { it.msg == agent.app().packageName + " waits for the user's decision about it" }
        }
        assertEquals(0, RecordingSmsManager.SENDS.size)
        userTapsAllow(host, agent.app())
        val confirmed = HashSet<Any>()
        host.idleUntil("the agent's answer") {
            for (sent in RecordingSmsManager.SENDS) {
                if (confirmed.add(sent)) sent.sentIntents[0].send(agent.app(), Activity.RESULT_OK, null)
            }
            answer.isDone
        }
        assertEquals("Anna knows, and the note is there.", answer.get())
        assertEquals("exactly one SMS went to the radio", 1, RecordingSmsManager.SENDS.size)
        assertEquals("+36201234567", RecordingSmsManager.SENDS.peek().destinationAddress)
        assertEquals(listOf("Milk"), notesTitles())
    }

    /** The notes' titles, as list_notes gives them. */
    private fun notesTitles(): List<String> = host.await(scope.async {
        val client = io.modelcontextprotocol.kotlin.sdk.client.Client(
            io.modelcontextprotocol.kotlin.sdk.types.Implementation(name = "check", version = "1"))
        client.connect(MobileMcpTransport(agent.app()))
        try {
            val listed = client.callTool("list_notes", emptyMap())!!.structuredContent!!
            (listed["notes"] as kotlinx.serialization.json.JsonArray).map {
                (it as kotlinx.serialization.json.JsonObject)["title"].toString().trim('"')
            }
        } finally {
            client.close()
        }
    }.asCompletableFuture())
}

package io.github.mobilemcp.app

import io.github.mobilemcp.client.ProviderFormatApi

import io.github.mobilemcp.client.ktx.McpClient
import io.github.mobilemcp.notes.NotesToolService
import io.github.mobilemcp.sdk.ToolSettings
import io.github.mobilemcp.sdk.internal.InternalApi
import io.github.mobilemcp.sdk.testing.McpTestRunner
import io.github.mobilemcp.sdk.testing.internal.WireRule
import kotlin.time.Duration.Companion.milliseconds
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.cancel
import kotlinx.coroutines.future.asCompletableFuture
import kotlinx.serialization.json.JsonObject
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.annotation.Config
import org.robolectric.shadows.ShadowLog

/** An assistant in Kotlin on client-ktx, with the SMS app and the notes sample installed (PhoneFunctions). */
@RunWith(McpTestRunner::class)
@Config(shadows = [RecordingSmsManager::class])
@OptIn(InternalApi::class) // WireRule, the SDK's own wire kit, plays the SMS app's other side
class KotlinAssistantTest {
    @get:Rule val agent = WireRule(ToolService::class.java).withoutConsent()
    private val phone = Phone()
    private val host = ToolHost(agent.app())
    private val notes = OtherApp(agent.app(), "io.github.mobilemcp.notes", "Notes")
    private val mcp = McpClient(agent.app())
    private val scope = CoroutineScope(Dispatchers.Default)

    @After fun tearDown() {
        scope.cancel(); mcp.close(); notes.stopTool(); host.close()
    }

    /** Runs [block] as the assistant, while the test plays Android, the user and the radio. */
    private fun <T> assistant(block: suspend () -> T): T = host.await(scope.async { block() }.asCompletableFuture())

    private fun golden(name: String) = javaClass.getResource("/models/$name.json")!!.readText().trim()

    // The providers' formats are an opt-in (ProviderFormatApi): they follow the providers.
    @OptIn(ProviderFormatApi::class)
    @Test fun discoversExportsAndCallsBothTools() {
        RecordingSmsManager.SENDS.clear()
        notes.install(NotesToolService::class.java, "Notes", R.xml.notes_capabilities)
        host.serve(notes)
        val functions = PhoneFunctions(mcp, patience = 500.milliseconds)
        val catalog = assistant { functions.refresh() }
        assertEquals(listOf("create_note", "delete_note", "get_sms_subscriptions", "list_notes", "send_sms"),
            catalog.entries().map { it.name() }.sorted())
        assertEquals(golden("openai-strict"), catalog.openAiStrictTools().toString(2))
        assertEquals(golden("openai"), catalog.openAiTools().toString(2))
        assertEquals(golden("anthropic"), catalog.anthropicTools().toString(2))
        assertEquals(golden("gemini"), catalog.geminiFunctionDeclarations().toString(2))

        assertEquals("""{"status":"success","message":"0 notes","outputs":{"count":0,"notes":[]}}""",
            assistant { functions.call("list_notes", JsonObject(emptyMap())) }.toString())

        // create_note: the notes app asks the user, the assistant waits, the user allows, the same request runs.
        val creating = scope.async { functions.call("create_note", buildJsonObject { put("title", "Milk") }) }
        host.idleUntil("the assistant to wait") { ShadowLog.getLogsForTag("MobileMCP").any { it.msg.endsWith("waits for the user's decision about it") } }
        ToolSettings.get(notes).allow(agent.app().packageName)
        assertEquals("""{"status":"success","message":"Created note 1","outputs":{"id":1}}""", host.await(creating.asCompletableFuture()).toString())

        // send_sms: the radio confirms only after the assistant's 500 ms have passed, and it retries.
        agent.settings().allow(agent.app().packageName)
        val sms = buildJsonObject { put("to_phone_number", "+36201234567"); put("sms_text", "Milk?"); put("subscription_id", 14) }
        val sending = scope.async { functions.call("send_sms", sms) }
        val sent = System.currentTimeMillis()
        host.idleUntil("the radio to have waited") { RecordingSmsManager.SENDS.size == 1 && System.currentTimeMillis() - sent > 1000 }
        RecordingSmsManager.SENDS.peek().sentIntents[0].send(agent.app(), android.app.Activity.RESULT_OK, null)
        assertEquals("""{"status":"success","message":"SMS sent to +36201234567","outputs":""" +
            """{"to_phone_number":"+36201234567","subscription_id":14,"encoding":"gsm7","segments":1}}""",
            host.await(sending.asCompletableFuture()).toString())
        assertEquals("exactly one SMS went to the radio", 1, RecordingSmsManager.SENDS.size)
    }
}

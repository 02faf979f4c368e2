package io.github.mobilemcp.app

import android.app.Activity
import io.github.mobilemcp.client.mcp.MobileMcpTransport
import io.github.mobilemcp.notes.NotesToolService
import io.github.mobilemcp.sdk.ToolSettings
import io.github.mobilemcp.sdk.internal.InternalApi
import io.github.mobilemcp.sdk.testing.McpTestRunner
import io.github.mobilemcp.sdk.testing.internal.WireRule
import io.modelcontextprotocol.kotlin.sdk.client.Client
import io.modelcontextprotocol.kotlin.sdk.shared.RequestOptions
import io.modelcontextprotocol.kotlin.sdk.shared.Transport
import io.modelcontextprotocol.kotlin.sdk.shared.TransportSendOptions
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCMessage
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCNotification
import io.modelcontextprotocol.kotlin.sdk.types.JSONRPCRequest
import io.modelcontextprotocol.kotlin.sdk.types.RequestId
import io.modelcontextprotocol.kotlin.sdk.types.CallToolResult
import io.modelcontextprotocol.kotlin.sdk.types.Implementation
import io.modelcontextprotocol.kotlin.sdk.types.Method
import io.modelcontextprotocol.kotlin.sdk.types.TextContent
import io.modelcontextprotocol.kotlin.sdk.types.ToolListChangedNotification
import java.util.concurrent.ConcurrentLinkedQueue
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.cancel
import kotlinx.coroutines.future.asCompletableFuture
import kotlinx.coroutines.runBlocking
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.annotation.Config
import org.robolectric.shadows.ShadowLog

/**
 * An MCP Kotlin SDK Client through MobileMcpTransport, with the SMS app and the notes sample
 * installed: the SDK's Server behind it, the client library and the real engines of both apps.
 */
@RunWith(McpTestRunner::class)
@Config(shadows = [RecordingSmsManager::class])
@OptIn(InternalApi::class) // WireRule, the SDK's own wire kit, plays the SMS app's other side
class McpTransportTest {
    @get:Rule val agent = WireRule(ToolService::class.java).withoutConsent()
    private val phone = Phone()
    private val host = ToolHost(agent.app())
    private val notes = OtherApp(agent.app(), "io.github.mobilemcp.notes", "Notes")
    private val scope = CoroutineScope(Dispatchers.Default)
    private val client = Client(Implementation(name = "test-assistant", version = "1"))
    private val listChanges = AtomicInteger()
    private val watched by lazy { Watched(MobileMcpTransport(agent.app())) }

    @After fun tearDown() {
        runBlocking { client.close() }
        scope.cancel(); notes.stopTool(); host.close()
    }

    /** Runs [block] as the assistant, while the test plays Android, the user and the radio. */
    private fun <T> assistant(block: suspend () -> T): T = host.await(scope.async { block() }.asCompletableFuture())

    /** Installs the notes sample, connects the client and counts the server's list_changed. */
    private fun connect() {
        RecordingSmsManager.SENDS.clear()
        notes.install(NotesToolService::class.java, "Notes", R.xml.notes_capabilities)
        host.serve(notes)
        client.setNotificationHandler<ToolListChangedNotification>(Method.Defined.NotificationsToolsListChanged) {
            listChanges.incrementAndGet()
            CompletableDeferred(Unit)
        }
        assistant { client.connect(watched) }
    }

    /** The JSON-RPC ids of the client's tools/call requests, in order. */
    private val calls = ConcurrentLinkedQueue<RequestId>()

    /** The client's side of the transport, which notes the ids of its calls. */
    private inner class Watched(val inner: Transport) : Transport by inner {
        override suspend fun send(message: JSONRPCMessage, options: TransportSendOptions?) {
            if (message is JSONRPCRequest && message.method == "tools/call") calls.add(message.id)
            inner.send(message, options)
        }
    }

    private fun sms(to: String) = mapOf("to_phone_number" to to, "sms_text" to "Milk?", "subscription_id" to 14)

    private fun text(result: CallToolResult) = (if (result.isError == true) "error: " else "") +
        result.content.joinToString { (it as TextContent).text ?: "" }

    private val confirmed = HashSet<Any>()

    /** Confirms to the app every SMS the radio got, once each, until done holds. */
    private fun radioConfirmsUntil(what: String, done: () -> Boolean) {
        host.idleUntil(what) {
            for (sent in RecordingSmsManager.SENDS) {
                if (confirmed.add(sent)) sent.sentIntents[0].send(agent.app(), Activity.RESULT_OK, null)
            }
            done()
        }
    }

    private fun <T> callWithRadio(block: suspend () -> T): T {
        val call = scope.async { block() }.asCompletableFuture()
        radioConfirmsUntil("the reply") { call.isDone }
        return call.get()
    }

    private val smsSent = """{"status":"success","message":"SMS sent to +36201234567","outputs":""" +
        """{"to_phone_number":"+36201234567","subscription_id":14,"encoding":"gsm7","segments":1}}"""

    @Test fun listsBothAppsCallsOnceAndFollowsTheRemoval() {
        agent.settings().allow(agent.app().packageName)
        connect()
        val tools = assistant { client.listTools().tools }
        assertEquals(
            listOf(
                "create_note | Create note (io.github.mobilemcp.notes) | readOnly=false destructive=false",
                "delete_note | Delete note (io.github.mobilemcp.notes) | readOnly=false destructive=true",
                "get_sms_subscriptions | List SMS subscriptions (io.github.mobilemcp.app) | readOnly=true destructive=false",
                "list_notes | List notes (io.github.mobilemcp.notes) | readOnly=true destructive=false",
                "send_sms | Send SMS (io.github.mobilemcp.app) | readOnly=false destructive=true",
            ),
            tools.map { "${it.name} | ${it.title} | readOnly=${it.annotations?.readOnlyHint} destructive=${it.annotations?.destructiveHint}" }
                .sorted(),
        )
        val send = tools.single { it.name == "send_sms" }
        assertEquals(listOf("to_phone_number", "sms_text"), send.inputSchema.required?.take(2))
        assertTrue(send.description!!, send.description!!.contains("[In the app io.github.mobilemcp.app."))

        // send_sms: one SMS; the same request id again gets the first run's reply, and sends nothing.
        val once = mapOf(MobileMcpTransport.REQUEST_ID_META to "sms-1")
        val first = callWithRadio { client.callTool("send_sms", sms("+36201234567"), once) }
        assertEquals(smsSent, text(first))
        assertEquals("""{"to_phone_number":"+36201234567","subscription_id":14,"encoding":"gsm7","segments":1}""",
            first.structuredContent.toString())
        assertEquals("exactly one SMS went to the radio", 1, RecordingSmsManager.SENDS.size)
        val again = callWithRadio { client.callTool("send_sms", sms("+36201234567"), once) }
        assertEquals(smsSent, text(again))
        assertEquals("still one SMS: the same request ran once", 1, RecordingSmsManager.SENDS.size)

        // A bad phone number: a tool error that names the field, and nothing sent.
        val bad = assistant { client.callTool("send_sms", sms("not a number")) }
        assertEquals("""error: {"status":"failure","message":"to_phone_number \"not a number\" is not an international number: """ +
            """write + then the country code and number, 7 to 15 digits in all, for example +36201234567",""" +
            """"error_code":"invalid_arguments","retry_safe":true,"retry":"Nothing was done. Fix what the message says, then call it again."}""",
            text(bad))
        assertEquals(1, RecordingSmsManager.SENDS.size)

        // The notes sample goes: the server says its list changed, and it lists the SMS app's tools only.
        val before = listChanges.get()
        notes.uninstall()
        host.idleUntil("tools/list_changed") { listChanges.get() > before }
        assertEquals(listOf("get_sms_subscriptions", "send_sms"), assistant { client.listTools().tools }.map { it.name }.sorted())
    }

    @Test fun aCallThatNeedsConsentTellsTheClientAndRunsAfterTheTap() {
        connect()
        val progress = ConcurrentLinkedQueue<String>()
        val call = scope.async {
            client.callTool("send_sms", sms("+36201234567"), options = RequestOptions(onProgress = { progress.add(it.message ?: "") }))
        }.asCompletableFuture()
        host.idleUntil("the question for the user") { progress.isNotEmpty() }
        assertEquals("The app io.github.mobilemcp.app is asking the user to allow this assistant to use send_sms; " +
            "nothing was done yet. Tell the user to answer the app's question.", progress.peek())
        assertEquals("nothing sent before the user decides", 0, RecordingSmsManager.SENDS.size)
        userTapsAllow(host, agent.app())
        radioConfirmsUntil("the reply") { call.isDone }
        assertEquals(smsSent, text(call.get()))
        assertEquals("exactly one SMS went to the radio", 1, RecordingSmsManager.SENDS.size)
        assertEquals(listOf("The user allowed it; the call runs now."), progress.drop(1))
    }

    /**
     * The assistant gives up on call: its coroutine is cancelled, and it tells the server with
     * notifications/cancelled naming the call's JSON-RPC id, as the MCP spec has a client do (the
     * SDK 0.11.1 client does not send it when a coroutine is cancelled).
     */
    private fun cancel(call: kotlinx.coroutines.Deferred<CallToolResult>) {
        val id = calls.last()
        call.cancel()
        assistant {
            watched.inner.send(JSONRPCNotification("notifications/cancelled", buildJsonObject {
                put("requestId", (id as RequestId.StringId).value)
                put("reason", "the user moved on")
            }), null)
        }
    }

    @Test fun cancellingStopsTheWaitNeverASendAlreadyStarted() {
        agent.settings().allow(agent.app().packageName)
        connect()
        // create_note waits for the user; the client cancels; then the user allows: nothing is created.
        val waiting = scope.async { client.callTool("create_note", mapOf("title" to "Milk")) }
        host.idleUntil("the call to wait for the user") {
            ShadowLog.getLogsForTag("MobileMCP").any { it.msg.endsWith("waits for the user's decision about it") }
        }
        cancel(waiting)
        ToolSettings.get(notes).allow(agent.app().packageName)
        val later = System.currentTimeMillis() + 1000
        host.idleUntil("a second") { System.currentTimeMillis() > later }
        assertEquals("""{"status":"success","message":"0 notes","outputs":{"count":0,"notes":[]}}""",
            text(assistant { client.callTool("list_notes", emptyMap()) }))

        // send_sms reaches the radio; the client cancels; the SMS still goes, once, and the same id gets its reply.
        val once = mapOf(MobileMcpTransport.REQUEST_ID_META to "sms-2")
        val sending = scope.async { client.callTool("send_sms", sms("+36201234567"), once) }
        host.idleUntil("the radio") { RecordingSmsManager.SENDS.size == 1 }
        cancel(sending)
        val after = callWithRadio { client.callTool("send_sms", sms("+36201234567"), once) }
        assertEquals(smsSent, text(after))
        assertEquals("exactly one SMS went to the radio", 1, RecordingSmsManager.SENDS.size)
    }
}

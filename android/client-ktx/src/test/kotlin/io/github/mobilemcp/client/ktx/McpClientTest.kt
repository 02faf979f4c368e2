package io.github.mobilemcp.client.ktx

import android.content.ComponentName
import android.content.Intent
import android.content.IntentFilter
import android.content.pm.ApplicationInfo
import android.content.pm.PackageInfo
import android.content.pm.ServiceInfo
import android.net.Uri
import android.os.Bundle
import android.os.Looper
import io.github.mobilemcp.client.Reply
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.cancel
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.serialization.Serializable
import kotlinx.serialization.json.buildJsonObject
import kotlinx.serialization.json.put
import org.junit.After
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Assert.fail
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.RobolectricTestRunner
import org.robolectric.RuntimeEnvironment
import org.robolectric.Shadows.shadowOf
import org.robolectric.shadows.ShadowPackageManager

/** The Kotlin client: the Flow of installed tools, arguments as a Map or JSON, typed outputs, and cancellation. */
@RunWith(RobolectricTestRunner::class) // the client has no Go, so Robolectric's own runner
class McpClientTest {
    private val app = RuntimeEnvironment.getApplication()
    private val mcp = McpClient(app)
    private val scope = CoroutineScope(Dispatchers.Default)

    @After fun tearDown() {
        scope.cancel()
        mcp.close()
    }

    /** Installs, or updates, an app with a Mobile-MCP tool named [name], and says so as Android does. */
    private fun install(pkg: String, name: String, action: String = Intent.ACTION_PACKAGE_ADDED) {
        val pm: ShadowPackageManager = shadowOf(app.packageManager)
        val info = ApplicationInfo().apply { packageName = pkg }
        pm.installPackage(PackageInfo().apply { packageName = pkg; applicationInfo = info })
        ShadowPackageManager.resources[pkg] = app.resources
        val component = ComponentName(pkg, "$pkg.ToolService")
        pm.addOrUpdateService(ServiceInfo().apply {
            packageName = pkg; this.name = component.className; exported = true; applicationInfo = info
            metaData = Bundle().apply {
                putString("mobile.mcp.tool.name", name)
                putString("mobile.mcp.tool.description", "$name waits")
                putInt("mobile.mcp.tool.capabilities", R.xml.timer_capabilities)
            }
        })
        pm.addIntentFilterForService(component, IntentFilter("mobile.mcp.SERVICE"))
        app.sendBroadcast(Intent(action, Uri.fromParts("package", pkg, null)))
    }

    private fun remove(pkg: String) {
        shadowOf(app.packageManager).removeService(ComponentName(pkg, "$pkg.ToolService"))
        shadowOf(app.packageManager).removePackage(pkg)
        app.sendBroadcast(Intent(Intent.ACTION_PACKAGE_REMOVED, Uri.fromParts("package", pkg, null)))
    }

    /** The next list the Flow sends, while the main looper delivers the broadcasts. */
    private fun next(seen: Channel<String>): String {
        val deadline = System.currentTimeMillis() + 10_000
        while (System.currentTimeMillis() < deadline) {
            shadowOf(Looper.getMainLooper()).idle()
            seen.tryReceive().getOrNull()?.let { return it }
            Thread.sleep(2)
        }
        throw AssertionError("the Flow sent nothing")
    }

    @Test fun toolsFollowsInstallsUpdatesAndRemovals() {
        val seen = Channel<String>(Channel.UNLIMITED)
        scope.launch { mcp.tools().collect { tools -> seen.send(tools.joinToString { "${it.packageName()} ${it.name()}" }) } }
        assertEquals("", next(seen))
        install("com.example.timer", "Timer")
        assertEquals("com.example.timer Timer", next(seen))
        install("com.example.timer", "Better timer", Intent.ACTION_PACKAGE_REPLACED)
        assertEquals("com.example.timer Better timer", next(seen))
        app.sendBroadcast(Intent(Intent.ACTION_PACKAGE_ADDED, Uri.fromParts("package", "com.example.game", null)))
        remove("com.example.timer")
        assertEquals("an app without a tool changes nothing, and is not sent", "", next(seen))
    }

    @Test fun argumentsAreAMapOrJson() = runBlocking {
        install("com.example.timer", "Timer")
        val tool = mcp.discover().tools().single()
        val fromMap = mcp.request(tool, "wait", mapOf("millis" to 10, "tags" to listOf("a", null), "at" to mapOf("x" to 1.5, "on" to true)))
        assertEquals("""{"millis":10,"tags":["a",null],"at":{"x":1.5,"on":true}}""", fromMap.arguments().toString())
        val fromJson = mcp.request(tool, "wait", buildJsonObject { put("millis", 10) })
        assertEquals("""{"millis":10}""", fromJson.arguments().toString())
        try {
            mcp.request(tool, "wait", mapOf("at" to mapOf("when" to Any())))
            fail("an argument that is no JSON was taken")
        } catch (e: IllegalArgumentException) {
            assertEquals("argument at.when is a java.lang.Object; give a string, number, boolean, null, map, list or JSON element", e.message)
        }
    }

    @Serializable data class Note(val id: Long, val title: String)
    @Serializable data class Notes(val count: Int, val notes: List<Note>)

    @Test fun outputsAreTyped() {
        val reply = Reply.fromJson("""{"mobile-mcp-response":{"version":"1.0","response":{"id":"r","capability":{"id":"list_notes",""" +
            """"output":[{"name":"count","type":"integer","value":1},{"name":"notes","type":"array","value":[{"id":1,"title":"Milk","body":""}]}]},""" +
            """"status":"success","message":"1 note"}}}""")
        assertEquals("""{"count":1,"notes":[{"id":1,"title":"Milk","body":""}]}""", reply.outputsJson.toString())
        assertEquals(Notes(1, listOf(Note(1, "Milk"))), reply.outputs<Notes>())
    }

    /** On the main thread, a call whose binding cannot connect (the main looper is not idled) suspends, and a timeout cancels it. */
    @Test fun aCallSuspendsWithoutBlocking_andIsCancellable() = runBlocking {
        install("com.example.timer", "Timer")
        val tool = mcp.discover().tools().single()
        val started = System.nanoTime()
        try {
            withTimeout(300) { mcp.send(tool, "wait", mapOf("millis" to 1)) }
            fail("a reply came")
        } catch (e: TimeoutCancellationException) {
            val millis = (System.nanoTime() - started) / 1_000_000
            assertTrue("cancelled after $millis ms", millis in 300..4_999)
        }
    }
}

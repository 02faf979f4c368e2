package io.github.mobilemcp.sdk

import io.github.mobilemcp.intentbridge.Bridge
import io.github.mobilemcp.intentbridge.Intentbridge
import io.github.mobilemcp.intentbridge.Tool
import io.github.mobilemcp.sdk.bench.PreviewTools
import io.github.mobilemcp.sdk.bench.register
import io.github.mobilemcp.sdk.bench.registerByName
import io.github.mobilemcp.sdk.internal.DescriptorTree
import io.github.mobilemcp.sdk.internal.InternalApi
import org.xmlpull.v1.XmlPullParserFactory
import java.io.File
import java.io.StringReader
import java.util.Optional
import kotlin.system.exitProcess

/**
 * Times one handler written two ways through the engine, as HandleBenchmark (the sdk's bench
 * sources) times list_notes: Java calls Bridge.handle with a ReplyTarget, the engine decodes and
 * checks the request, calls the handler behind the SDK's adapter, and encodes the reply. The
 * handler is preview_note (bench/PreviewTools.kt): once on the string API, once as a typed
 * `@McpTool` function registered by the code sdk-ksp generated for it. The two take turns, one
 * round of each after the other (in alternating order), so that the machine's load falls on both
 * alike. It prints each one's median and p99 and the typed/string ratio of the medians (target
 * 1.05 or less). Run it with `make bench-android`. A benchmark, not a test: it never fails on a
 * timing.
 *
 * Args: the timed calls of each (default 20,000), and the descriptor's path (default
 * android/sdk-ktx/src/bench/res/xml/mcp_capabilities.xml, from the repository's root).
 */
@OptIn(InternalApi::class) // DescriptorTree, the SDK's walk of a descriptor
object TypedBenchmark {
    private const val ROUNDS = 20
    private const val REQUEST = "{\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{\"id\":\"bench\"," +
        "\"capability\":{\"id\":\"preview_note\",\"args\":{\"title\":\"Milk\",\"body\":\"2 litres, semi-skimmed\",\"pinned\":true,\"priority\":2}}}}}"
    private const val EXPECT = "\"message\":\"A note of 28 characters\""

    @JvmStatic
    fun main(args: Array<String>) {
        val calls = args.getOrNull(0)?.toInt() ?: 20_000
        val descriptor = File(args.getOrNull(1) ?: "android/sdk-ktx/src/bench/res/xml/mcp_capabilities.xml").readText()
        val perRound = maxOf(1, calls / ROUNDS)

        val byName = serve(descriptor) { it.registerByName() }
        val typed = serve(descriptor) { it.register(PreviewTools()) }
        val replies = listOf(handle(byName, REQUEST), handle(typed, REQUEST))
        for (reply in replies) {
            check(reply.contains("\"status\":\"success\"") && reply.contains(EXPECT)) { "unexpected reply: $reply" }
        }
        check(replies[0] == replies[1]) { "the two handlers answer differently:\n${replies[0]}\n${replies[1]}" }

        // Long enough for the JIT to finish with both paths (HandleBenchmark's warm-up).
        val warmup = maxOf(30_000, calls)
        for (i in 0 until warmup) {
            handle(byName, REQUEST)
            handle(typed, REQUEST)
        }

        val byNameNanos = LongArray(perRound * ROUNDS)
        val typedNanos = LongArray(perRound * ROUNDS)
        val roundRatios = DoubleArray(ROUNDS)
        for (round in 0 until ROUNDS) {
            val from = round * perRound
            if (round % 2 == 0) {
                time(byName, byNameNanos, from, perRound)
                time(typed, typedNanos, from, perRound)
            } else {
                time(typed, typedNanos, from, perRound)
                time(byName, byNameNanos, from, perRound)
            }
            roundRatios[round] = median(typedNanos.copyOfRange(from, from + perRound)) /
                median(byNameNanos.copyOfRange(from, from + perRound))
        }
        byName.close()
        typed.close()

        byNameNanos.sort()
        typedNanos.sort()
        roundRatios.sort()
        val ratio = quantile(typedNanos, 0.50) / quantile(byNameNanos, 0.50)
        println("bench-android: Bridge.handle, Java->Go->Java, preview_note: a typed @McpTool handler beside the same handler on the string API")
        println("  ${perRound * ROUNDS} calls each (after $warmup warm-up each), in $ROUNDS rounds taking turns; reply ${replies[0].length} chars")
        println("  string  median %.1f us   p99 %.1f us".format(quantile(byNameNanos, 0.50) / 1e3, quantile(byNameNanos, 0.99) / 1e3))
        println("  typed   median %.1f us   p99 %.1f us".format(quantile(typedNanos, 0.50) / 1e3, quantile(typedNanos, 0.99) / 1e3))
        println("  typed/string: median %.3f (target <= 1.05), p99 %.3f; per round, medians: %.3f to %.3f, median %.3f".format(
            ratio, quantile(typedNanos, 0.99) / quantile(byNameNanos, 0.99),
            roundRatios.first(), roundRatios.last(), roundRatios[ROUNDS / 2]))
        // Go's threads attach to the JVM as non-daemon threads, so returning from main would leave
        // the JVM waiting for them forever.
        exitProcess(0)
    }

    /** A fresh bridge serving the descriptor, its handlers registered by register. */
    private fun serve(descriptor: String, register: (ToolHandlers) -> Unit): Bridge {
        val tool: Tool = Intentbridge.newTool("res/xml/mcp_capabilities.xml", tree(descriptor))
        // No caller's signer is looked up (HandleBenchmark passes null too); Kotlin takes the
        // null only as a Java value.
        register(ToolHandlers(tool, Optional.empty<CallerSigners>().orElse(null)))
        return Intentbridge.openBridge("").also { it.start(tool) }
    }

    /** The engine's JSON tree of a descriptor's text, as HandleBenchmark makes it. */
    private fun tree(xml: String): String {
        val parser = XmlPullParserFactory.newInstance().apply { isNamespaceAware = true }.newPullParser()
        parser.setInput(StringReader(xml))
        return DescriptorTree.walk(parser)
    }

    private fun time(bridge: Bridge, nanos: LongArray, from: Int, count: Int) {
        for (i in from until from + count) {
            val t0 = System.nanoTime()
            handle(bridge, REQUEST)
            nanos[i] = System.nanoTime() - t0
        }
    }

    /** One request, as a worker runs it: a ReplyTarget made for it, which keeps the reply's JSON. */
    private fun handle(bridge: Bridge, request: String): String {
        var json: String? = null
        bridge.handle(request, "bench") { spec, _, _, _ -> json = spec }
        return json!!
    }

    private fun median(nanos: LongArray): Double = quantile(nanos.apply { sort() }, 0.50)

    /** The q-quantile of sorted (nearest rank). */
    private fun quantile(sorted: LongArray, q: Double): Double =
        sorted[maxOf(0, Math.ceil(q * sorted.size).toInt() - 1)].toDouble()
}

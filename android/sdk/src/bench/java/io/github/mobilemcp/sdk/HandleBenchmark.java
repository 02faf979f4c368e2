package io.github.mobilemcp.sdk;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.intentbridge.Tool;
import io.github.mobilemcp.sdk.internal.DescriptorTree;
import io.github.mobilemcp.smsapp.Platform;
import io.github.mobilemcp.smsapp.Smsapp;

import org.json.JSONArray;
import org.json.JSONObject;
import org.xmlpull.v1.XmlPullParser;
import org.xmlpull.v1.XmlPullParserFactory;

import java.io.StringReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Times one request through the engine the way the tool service's worker runs it: Java calls
 * {@code Bridge.handle} with a Java ReplyTarget; the engine parses and validates the request and
 * runs the capability inline on the calling thread (Engine.Run), calling back into Java for
 * the capability's Java part; then it encodes the reply and calls the ReplyTarget, which reads the
 * reply's JSON as the SDK's transports do. Two requests are timed:
 * <ol>
 *   <li>{@code get_sms_subscriptions}: the SMS capability, implemented in Go, with a Java stub for
 *       the phone's {@link Platform} (the SMS app's path, without telephony);
 *   <li>a sample handler call: {@code list_notes} on a one-capability descriptor, its handler a
 *       {@link CapabilityHandler} registered through {@link ToolHandlers}, so that it runs behind the
 *       SDK's own adapter ({@link JavaHandler}: arguments into a {@link ToolCall}, the
 *       {@link ToolResult} back to JSON).
 * </ol>
 *
 * <p>A plain JVM is enough (no Robolectric): gobind's classes and the SDK's handler path need
 * android.* only to compile, and call no Android natives (ToolCall times with System.nanoTime).
 * It lives in the SDK's package to reach ToolHandlers' constructor, which apps never call. Run it
 * with {@code make bench-android}. A benchmark, not a test: it never fails on a timing.
 */
public final class HandleBenchmark {
    private static final String SUBSCRIPTIONS = request("get_sms_subscriptions");
    private static final String LIST_NOTES = request("list_notes");

    /** A descriptor with one read-only capability, as the notes sample declares it. */
    private static final String NOTES_DESCRIPTOR = "<mobile-mcp-capabilities xmlns:mcp=\"https://mobilemcp.github.io/ns\" version=\"1.0\">\n"
            + "  <capability id=\"list_notes\" description=\"Lists every note, oldest first.\" version=\"1.0\"\n"
            + "      mcp:title=\"List notes\" mcp:readOnly=\"true\" mcp:destructive=\"false\" mcp:idempotent=\"true\" mcp:openWorld=\"false\">\n"
            + "    <output>\n"
            + "      <param name=\"count\" type=\"integer\" description=\"How many notes there are.\"/>\n"
            + "      <param name=\"notes\" type=\"array\" description=\"The notes, each with id, title and body.\"/>\n"
            + "    </output>\n"
            + "  </capability>\n"
            + "</mobile-mcp-capabilities>\n";

    /** The two default SIMs, as AndroidPlatform would list them; no telephony is involved. */
    private static final class StubPlatform implements Platform {
        @Override
        public String subscriptionsJSON() {
            return "[{\"subscription_id\":14,\"sim_slot_index\":0,\"carrier_name\":\"Vodafone UK\",\"display_name\":\"Vodafone UK\"},"
                    + "{\"subscription_id\":17,\"sim_slot_index\":1,\"carrier_name\":\"Yettel HU\",\"display_name\":\"Yettel HU\"}]";
        }

        @Override
        public String sendSMS(long subscriptionID, String to, String text, long timeoutMillis) {
            throw new UnsupportedOperationException("the benchmark sends nothing");
        }
    }

    private HandleBenchmark() {}

    private static String request(String capability) {
        return "{\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":"
                + "{\"id\":\"bench\",\"capability\":{\"id\":\"" + capability + "\",\"args\":{}}}}}";
    }

    /**
     * Args: the number of timed calls per request (default 20,000), and the path of the SMS app's
     * descriptor (default android/app/res/xml/mcp_capabilities.xml, from the repository's root).
     */
    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        Path smsDescriptor = Path.of(args.length > 1 ? args[1] : "android/app/res/xml/mcp_capabilities.xml");

        Tool sms = Intentbridge.newTool("res/xml/mcp_capabilities.xml", tree(Files.readString(smsDescriptor)));
        Smsapp.addSMS(sms, new StubPlatform());
        run("get_sms_subscriptions, SMS capability in Go, Java stub Platform", sms, SUBSCRIPTIONS, "\"value\":2", calls);

        JSONArray notes = new JSONArray()
                .put(new JSONObject().put("id", 1).put("title", "Milk").put("body", "2 litres"))
                .put(new JSONObject().put("id", 2).put("title", "Call Anna").put("body", ""));
        Tool notesTool = Intentbridge.newTool("res/xml/mcp_capabilities.xml", tree(NOTES_DESCRIPTOR));
        new ToolHandlers(notesTool, null).on("list_notes",
                call -> ToolResult.success(notes.length() + " notes").put("count", notes.length()).put("notes", notes));
        run("list_notes, a Java CapabilityHandler through the SDK's adapter", notesTool, LIST_NOTES, "\"message\":\"2 notes\"", calls);

        // Go's threads attach to the JVM as non-daemon threads, so returning from main would leave
        // the JVM waiting for them forever.
        System.exit(0);
    }

    /**
     * The engine's JSON tree of a descriptor's text: the walk the SDK makes of the compiled resource,
     * here over Android's parser of XML text, as there are no compiled resources on a plain JVM.
     */
    private static String tree(String xml) throws Exception {
        XmlPullParserFactory factory = XmlPullParserFactory.newInstance(); // android.util.Xml needs Android's natives
        factory.setNamespaceAware(true);
        XmlPullParser parser = factory.newPullParser();
        parser.setInput(new StringReader(xml));
        return DescriptorTree.walk(parser);
    }

    /** Serves tool on a fresh bridge, times calls of request after a warm-up, and prints the figures. */
    private static void run(String what, Tool tool, String request, String expect, int calls) throws Exception {
        Bridge bridge = Intentbridge.openBridge("");
        bridge.start(tool);
        String first = handle(bridge, request);
        if (!first.contains("\"status\":\"success\"") || !first.contains(expect)) {
            throw new AssertionError(what + ": unexpected reply: " + first);
        }
        // Long enough for the JIT to finish with the handler's path (org.json, the SDK's adapter,
        // gobind's glue): a tool service answers many calls in one process, so the steady state
        // is what agents see. 5,000 left the medians some 30% above it.
        int warmup = Math.max(30_000, calls);
        for (int i = 0; i < warmup; i++) {
            handle(bridge, request); // JIT, Go's heap, gobind's reference tables
        }

        long[] nanos = new long[calls];
        long length = 0;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpuStart = threads.getCurrentThreadCpuTime();
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            long t0 = System.nanoTime();
            String reply = handle(bridge, request);
            nanos[i] = System.nanoTime() - t0;
            length += reply.length(); // keep the reply alive, so the read is not optimised away
        }
        long wall = System.nanoTime() - start;
        long cpu = threads.getCurrentThreadCpuTime() - cpuStart;
        bridge.close();

        Arrays.sort(nanos);
        System.out.printf("bench-android: Bridge.handle, Java->Go->Java, %s%n", what);
        System.out.printf("  calls %d (after %d warm-up), reply %d chars%n", calls, warmup, length / calls);
        System.out.printf("  median %.1f us   p99 %.1f us   p99.9 %.1f us   max %.1f us%n",
                micros(nanos, 0.50), micros(nanos, 0.99), micros(nanos, 0.999), nanos[calls - 1] / 1e3);
        System.out.printf("  throughput %.0f calls/s on one thread; the calling thread's CPU %.1f us a call%n",
                calls / (wall / 1e9), cpu / 1e3 / calls);
    }

    /**
     * One request, as a worker runs it: a ReplyTarget made for the request, which reads the reply's
     * JSON when the engine sends it (the SDK's transports put it in the reply extras), on this thread.
     */
    private static String handle(Bridge bridge, String request) {
        AtomicReference<String> json = new AtomicReference<>();
        bridge.handle(request, "bench", (spec, flat, requestId, errorCode) -> json.set(spec));
        return json.get();
    }

    /** The q-quantile of sorted, in microseconds (nearest rank). */
    private static double micros(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, rank)] / 1e3;
    }
}

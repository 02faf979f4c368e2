package io.github.mobilemcp.sdktests;

import static org.robolectric.Shadows.shadowOf;

import android.content.Intent;
import android.os.Looper;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.RequestLimits;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.json.JSONObject;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * How long an allowed assistant waits for a call while other apps flood the tool: each flooding app
 * keeps as many slow read-only calls in flight as the tool accepts from one app, and each of them
 * spends {@link #HANDLER_MILLIS} in its handler; the assistant makes {@link #CALLS} calls of a fast
 * capability one after the other, and each one's wait, from sending to its reply, is timed. With
 * fair workers it stays near one handler's run time whatever the flood's length.
 *
 * <p>A benchmark, not a test: it asserts nothing about time, and runs only when asked for, with
 * {@code make bench-android} (scripts/bench-flood.sh), which prints its figures from
 * {@code target/flood-benchmark.txt}. It runs in Robolectric, against the real tool service, its
 * workers and the real engine; replies are seen by polling the main looper every millisecond.
 */
@RunWith(McpTestRunner.class)
public class FloodBenchmark {
    static final long HANDLER_MILLIS = 20;
    static final int CALLS = 40;

    @Rule public final WireRule agent = new WireRule(TestToolService.class);

    @Rule(order = 1) public final ClosedGate gate = new ClosedGate();

    private final Map<String, Integer> inFlight = new HashMap<>();
    /** The ids of the assistant's calls that have their reply. */
    private final Set<String> answered = new HashSet<>();
    private int sent;
    private int handled;

    @Test
    public void anAssistantsWait_whileOtherAppsFlood() throws Exception {
        Gate.workFor(HANDLER_MILLIS);
        List<String> report = new ArrayList<>();
        report.add(String.format(Locale.ROOT, "flood: each app keeps %d calls of %d ms in flight; the tool has %d workers",
                RequestLimits.MAX_IN_FLIGHT_PER_CALLER, HANDLER_MILLIS, RequestLimits.MAX_CONCURRENT_CALLS));
        report.add(run("one app floods by binding; the assistant binds", List.of("com.example.flood"), false));
        report.add(run("one app floods by binding; the assistant sends Intents", List.of("com.example.flood"), true));
        report.add(run("two apps flood by binding; the assistant binds", List.of("com.example.flood", "com.example.flood2"), false));
        Path out = Paths.get("target", "flood-benchmark.txt");
        Files.write(out, (String.join("\n", report) + "\n").getBytes(StandardCharsets.UTF_8),
                StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
    }

    /** One scenario: floods from apps, the assistant's calls timed; its line of figures. */
    private String run(String name, List<String> apps, boolean byIntent) throws Exception {
        inFlight.clear();
        for (String app : apps) {
            inFlight.put(app, 0);
        }
        topUp();
        waitMillis(500); // the flood fills the queue
        List<Long> waits = new ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
            String id = "assistant-" + name.hashCode() + "-" + i;
            String request = WireRule.request(id, "inspect", "{\"text\":\"hi\"}");
            long start = System.nanoTime();
            if (byIntent) {
                agent.deliver(agent.intentFor(request));
            } else {
                agent.sendMessage(request);
            }
            while (!answered.contains(id)) {
                topUp();
                Thread.sleep(1);
            }
            waits.add((System.nanoTime() - start) / 1_000_000);
        }
        // Let the flood drain before the next scenario.
        for (String app : apps) {
            inFlight.put(app, -1_000_000); // sends no more
        }
        long deadline = System.currentTimeMillis() + 60_000;
        while (sent > handled && System.currentTimeMillis() < deadline) {
            collect();
            Thread.sleep(5);
        }
        Collections.sort(waits);
        return String.format(Locale.ROOT, "%s: the assistant's wait over %d calls: median %d ms, p90 %d ms, max %d ms",
                name, CALLS, waits.get(CALLS / 2), waits.get(CALLS * 9 / 10), waits.get(CALLS - 1));
    }

    /** Sends each flooding app's calls until it has the most one app may have in flight. */
    private void topUp() throws Exception {
        collect();
        for (Map.Entry<String, Integer> app : inFlight.entrySet()) {
            for (int n = app.getValue(); n >= 0 && n < RequestLimits.MAX_IN_FLIGHT_PER_CALLER; n++) {
                String id = app.getKey() + "#" + sent++;
                agent.sendMessageAs(app.getKey(), Intentbridge.ExtraRequest, WireRule.request(id, "hold", "{\"name\":\"" + id + "\"}"));
                app.setValue(n + 1);
            }
        }
    }

    /** Takes the replies that arrived: the flood's free their places, the assistant's are noted. */
    private void collect() throws Exception {
        shadowOf(Looper.getMainLooper()).idle();
        for (Intent reply : new ArrayList<>(agent.replies())) {
            String id = new JSONObject(reply.getStringExtra(Intentbridge.ExtraResponse)).optJSONObject("mobile-mcp-response")
                    .optJSONObject("response").optString("id");
            int hash = id.indexOf('#');
            if (hash > 0) {
                String app = id.substring(0, hash);
                inFlight.put(app, inFlight.get(app) - 1);
                handled++;
            } else {
                answered.add(id);
            }
        }
        agent.replies().clear();
    }

    private void waitMillis(long millis) throws Exception {
        long end = System.currentTimeMillis() + millis;
        while (System.currentTimeMillis() < end) {
            collect();
            Thread.sleep(1);
        }
    }
}

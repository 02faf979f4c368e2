package io.github.mobilemcp.app;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.intentbridge.Platform;

import java.util.Arrays;

/**
 * Times the Java → Go → Java round trip of one get_sms_subscriptions request through gobind and the
 * host-built libgojni.so: Java calls Bridge.handle, Go parses and dispatches, calls back into Java
 * for the subscriptions, encodes the reply, and Java reads its JSON. This is the whole per-request
 * cost the JNI boundary adds on top of the service's own work.
 *
 * <p>A plain JVM is enough (no Robolectric): gobind's classes need android.* only to compile.
 * Run it with {@code make bench-android}; the number of timed calls is the first argument.
 */
public final class HandleBenchmark {
    private static final String REQUEST = "{\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":"
            + "{\"id\":\"bench\",\"capability\":{\"id\":\"get_sms_subscriptions\",\"args\":{}}}}}";

    /** The seed's two SIMs, as AndroidPlatform would list them; no telephony is involved. */
    private static final class StubPlatform implements Platform {
        @Override
        public String subscriptionsJSON() {
            return "[{\"subscription_id\":14,\"sim_slot_index\":0,\"carrier_name\":\"Vodafone UK\",\"display_name\":\"Vodafone UK\"},"
                    + "{\"subscription_id\":17,\"sim_slot_index\":1,\"carrier_name\":\"Yettel HU\",\"display_name\":\"Yettel HU\"}]";
        }

        @Override
        public String sendSMS(long subscriptionID, String to, String text, long timeoutMillis) throws Exception {
            throw new UnsupportedOperationException("the benchmark sends nothing");
        }
    }

    private HandleBenchmark() {}

    /** Prints the median and p99 of {@code args[0]} (default 20,000) timed calls, after a warm-up. */
    public static void main(String[] args) throws Exception {
        int calls = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int warmup = Math.max(5_000, calls / 4);
        Bridge bridge = Intentbridge.newBridge(new StubPlatform(), "");

        String first = bridge.handle(REQUEST, "bench").specJSON();
        if (!first.contains("\"status\":\"success\"") || !first.contains("\"value\":2")) {
            throw new AssertionError("unexpected reply: " + first);
        }
        for (int i = 0; i < warmup; i++) {
            bridge.handle(REQUEST, "bench").specJSON(); // JIT, Go's heap, gobind's reference tables
        }

        long[] nanos = new long[calls];
        long length = 0;
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            long t0 = System.nanoTime();
            String reply = bridge.handle(REQUEST, "bench").specJSON();
            nanos[i] = System.nanoTime() - t0;
            length += reply.length(); // keep the reply alive, so the read is not optimised away
        }
        long wall = System.nanoTime() - start;
        bridge.close();

        Arrays.sort(nanos);
        System.out.printf("bench-android: Bridge.handle(get_sms_subscriptions) Java->Go->Java through libgojni.so%n");
        System.out.printf("  calls %d (after %d warm-up), reply %d chars%n", calls, warmup, length / calls);
        System.out.printf("  median %.1f us   p99 %.1f us   p99.9 %.1f us   max %.1f us%n",
                micros(nanos, 0.50), micros(nanos, 0.99), micros(nanos, 0.999), nanos[calls - 1] / 1e3);
        System.out.printf("  throughput %.0f calls/s on one thread%n", calls / (wall / 1e9));
        // Go's threads attach to the JVM as non-daemon threads, so returning from main would leave
        // the JVM waiting for them forever.
        System.exit(0);
    }

    /** The q-quantile of sorted, in microseconds (nearest rank). */
    private static double micros(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, rank)] / 1e3;
    }
}

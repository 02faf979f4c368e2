package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.content.Intent;
import android.os.Bundle;
import android.os.Process;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.AdbProvider;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.internal.RequestLimits;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.shadows.ShadowBinder;
import org.robolectric.shadows.ShadowLog;

/**
 * One admission for every transport (docs/security.md, "An app that floods the tool"): a request
 * by binding, in an Intent (with a callback or without) or from adb's shell through the provider
 * passes the same size check and the same cap on requests in flight per caller before anything is
 * queued. Requests whose caller Android does not name also share one budget, so a flood that
 * changes the package its callbacks claim gains nothing. Each attacker's steps, then that nothing
 * more was queued: the hold calls past the cap never come to the gate.
 */
@RunWith(McpTestRunner.class)
public class AdmissionTest {
    private static final int CAP = RequestLimits.MAX_IN_FLIGHT_PER_CALLER;

    @Rule public final WireRule agent = new WireRule(TestToolService.class);

    @Rule(order = 1) public final ClosedGate gate = new ClosedGate();

    private ExecutorService shell;

    @After
    public void tearDown() {
        Gate.open();
        if (shell != null) {
            shell.shutdownNow();
        }
        ShadowBinder.reset();
    }

    private static String hold(String name) {
        return WireRule.request(name, "hold", "{\"name\":\"" + name + "\"}");
    }

    /** The spec replies that arrived, in order. */
    private List<String> specReplies() {
        List<String> out = new ArrayList<>();
        for (Intent reply : new ArrayList<>(agent.replies())) {
            out.add(reply.getStringExtra(Intentbridge.ExtraResponse));
        }
        return out;
    }

    /** Another app's startForegroundService with a hold request, its callback created by creator. */
    private void holdByIntent(String creator, String name) {
        agent.deliver(agent.intentFrom(creator, hold(name)));
    }

    @Test
    public void anAppFloodingByIntent_isRateLimitedPastItsCap_andQueuesNothingMore() throws Exception {
        for (int i = 0; i < CAP; i++) {
            holdByIntent("com.example.flood", "f-" + i);
        }
        holdByIntent("com.example.flood", "f-over");
        WireRule.idleUntil("the refusal", () -> !agent.replies().isEmpty());
        assertEquals(64, CAP);
        assertEquals(List.of(WireRule.failureReply("f-over", "hold", "com.example.flood has 64 requests in flight to this tool,"
                + " the most one app may have; send the next once one is answered", "rate_limited")), specReplies());

        Gate.open();
        WireRule.idleUntil("every admitted call's reply", () -> agent.replies().size() == CAP + 1);
        assertFalse("the refused call never ran", Gate.arrived().contains("f-over"));
    }

    /**
     * Half the cap under each of two claimed packages, then a third claim and no callback at all:
     * the requests whose caller Android does not name share one budget, so each gets rate_limited.
     */
    @Test
    public void changingTheClaim_gainsNothing() throws Exception {
        agent.settings().setDeveloperSwitchOn(true); // so that a request without a callback may run at all
        for (int i = 0; i < CAP / 2; i++) {
            holdByIntent("com.example.a", "a-" + i);
            holdByIntent("com.example.b", "b-" + i);
        }
        holdByIntent("com.example.c", "c-over");
        agent.deliver(agent.intentWithoutCallback(hold("none-over")));
        WireRule.idleUntil("the refusal", () -> !agent.replies().isEmpty() && !logged().isEmpty());
        String shared = "callers that Android does not name have 64 requests in flight to this tool together, the most they"
                + " may have: an Intent names only the app that created its callback, which any app holding that callback can"
                + " claim; bind to the tool's service to have requests of your own, or send the next once one is answered";
        assertEquals(List.of(WireRule.failureReply("c-over", "hold", shared, "rate_limited")), specReplies());
        assertEquals(List.of(WireRule.failureReply("none-over", "hold", shared, "rate_limited")), logged());

        Gate.open();
        WireRule.idleUntil("every admitted call's reply", () -> agent.replies().size() == CAP + 1);
        assertFalse(Gate.arrived().contains("c-over"));
        assertFalse(Gate.arrived().contains("none-over"));
    }

    /** Every worker is busy with a slow call; a request of 200,000 characters comes in an Intent. */
    @Test
    public void anOversizedIntent_isRefusedAtOnce_whileEveryWorkerIsBusy() throws Exception {
        for (String app : List.of("com.example.a", "com.example.b")) {
            for (int i = 1; i <= RequestLimits.MAX_CONCURRENT_CALLS / 2; i++) {
                agent.sendMessageAs(app, Intentbridge.ExtraRequest, hold(app + "-" + i));
            }
        }
        TestTool.awaitInside("com.example.a-1", "com.example.a-2", "com.example.b-1", "com.example.b-2");

        String big = WireRule.request("big", "inspect", "{\"text\":\"" + "x".repeat(200_000) + "\"}");
        agent.deliver(agent.intentFrom("com.example.big", big));
        WireRule.idleUntil("the refusal", () -> !agent.replies().isEmpty());
        assertEquals(List.of(WireRule.failureReply(null, null, "request is 200112 bytes; the limit is 65536", "too_large")), specReplies());
        assertEquals("the slow calls still hold every worker", 4, Gate.inside().size());
    }

    /**
     * adb's shell, through the provider, sends the cap's worth of slow calls, then one more: that
     * one is answered rate_limited at once, and never runs.
     */
    @Test
    public void theShellPastItsCap_isRateLimited_andQueuesNothingMore() throws Exception {
        shadowOf(agent.app()).grantPermissions(Manifest.permission.DUMP);
        Robolectric.buildService(TestToolService.class).create(); // the tool starts with its service
        AdbProvider provider = Robolectric.buildContentProvider(AdbProvider.class).create(TestTool.APP + ".mobilemcp.adb").get();
        List<Thread> callers = new ArrayList<>();
        shell = Executors.newFixedThreadPool(CAP + 1, r -> {
            Thread t = new Thread(r, "adb-shell-call");
            synchronized (callers) {
                callers.add(t);
            }
            return t;
        });
        List<Future<Bundle>> calls = new ArrayList<>();
        for (int i = 0; i < CAP; i++) {
            calls.add(callAsShell(provider, hold("s-" + i)));
        }
        // Each call is admitted, and waits (at the gate or in the queue), before the last is sent.
        WireRule.idleUntil("every call to wait", () -> {
            synchronized (callers) {
                return callers.size() == CAP && callers.stream().allMatch(t ->
                        t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING);
            }
        });
        Bundle over = callAsShell(provider, hold("s-over")).get(10, TimeUnit.SECONDS);
        assertEquals(WireRule.failureReply("s-over", "hold", "(adb shell) has 64 requests in flight to this tool,"
                + " the most one app may have; send the next once one is answered", "rate_limited"), over.getString(Intentbridge.ExtraResponse));

        Gate.open();
        for (int i = 0; i < CAP; i++) {
            assertEquals(TestTool.heldReply("s-" + i, "s-" + i), calls.get(i).get(10, TimeUnit.SECONDS).getString(Intentbridge.ExtraResponse));
        }
        assertFalse(Gate.arrived().contains("s-over"));
    }

    private Future<Bundle> callAsShell(AdbProvider provider, String request) {
        return shell.submit(() -> {
            ShadowBinder.setCallingPid(Process.myPid() + 1); // another process: checkCallingPermission looks at it
            ShadowBinder.setCallingUid(2000);
            return provider.call("invoke", request, null);
        });
    }

    private static List<String> logged() {
        return ShadowLog.getLogsForTag(McpToolService.LOG_TAG).stream()
                .filter(l -> l.type == Log.INFO).map(l -> l.msg).collect(Collectors.toList());
    }
}

package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.content.Intent;
import android.content.pm.ApplicationInfo;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.IBinder;
import android.os.Message;
import android.os.Messenger;
import android.os.Process;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.AdbProvider;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.internal.BindingMessages;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.shadows.ShadowBinder;
import org.robolectric.shadows.ShadowLog;

/**
 * No caller, no change (docs/security.md, "Someone with adb", "Any app on the phone"): a request whose
 * sender Android cannot name never runs a capability that changes something, whatever the build or
 * the developer switch; adb's shell proves itself through the SDK's {@link AdbProvider}, which no app
 * can use. Each attacker's steps, then that nothing was recorded.
 */
@RunWith(McpTestRunner.class)
public class NoCallerNoChangeTest {
    private static final String RECORD = "{\"text\":\"hi\"}";
    static final String NO_CALLER = "record changes something on this phone, and this request names no caller that Android"
            + " vouches for (an Intent without a callback, or a process without a package), so it never runs; an app binds to"
            + " this tool's service (binding mode), and adb sends it through the tool's shell-only provider, as 'mobilemcp adb call' does";

    @Rule public final WireRule agent = new WireRule(TestToolService.class);

    private final ExecutorService shell = Executors.newSingleThreadExecutor();

    @After
    public void tearDown() {
        shell.shutdownNow();
        ShadowBinder.reset();
    }

    /** Another app's startForegroundService with only the request extra, as adb's am sends it. */
    private String recordWithoutCallback(String id) throws Exception {
        agent.startService(agent.intentWithoutCallback(WireRule.request(id, "record", RECORD)));
        WireRule.idleUntil("the service to stop itself", () -> shadowOf(agent.service().get()).isStoppedBySelf());
        List<ShadowLog.LogItem> logs = ShadowLog.getLogsForTag(McpToolService.LOG_TAG);
        assertEquals(1, logs.size());
        return logs.get(0).msg;
    }

    @Test
    public void anIntentWithoutACallback_recordsNothing_inADebuggableBuild() throws Exception {
        agent.app().getApplicationInfo().flags |= ApplicationInfo.FLAG_DEBUGGABLE;
        assertEquals(WireRule.failureReply("n-1", "record", NO_CALLER, "permission_denied"), recordWithoutCallback("n-1"));
        assertEquals(List.of(), TestTool.recorded());
    }

    @Test
    public void anIntentWithoutACallback_recordsNothing_withTheDeveloperSwitchOn() throws Exception {
        agent.settings().setDeveloperSwitchOn(true);
        assertEquals(WireRule.failureReply("n-2", "record", NO_CALLER, "permission_denied"), recordWithoutCallback("n-2"));
        assertEquals(List.of(), TestTool.recorded());
    }

    /** An isolated process (a uid Android names no package for) binds and sends record. */
    @Test
    public void aBindingFromAUidWithoutAPackage_recordsNothing() throws Exception {
        IBinder binder = Robolectric.buildService(TestToolService.class).create().get()
                .onBind(new Intent(Intentbridge.ServiceAction));
        BlockingQueue<Bundle> replies = new LinkedBlockingQueue<>();
        HandlerThread thread = new HandlerThread("isolated-replies");
        thread.start();
        Message msg = Message.obtain(null, BindingMessages.MSG_INVOKE);
        Bundle data = new Bundle();
        data.putString(Intentbridge.ExtraRequest, WireRule.request("iso-1", "record", RECORD));
        msg.setData(data);
        msg.replyTo = new Messenger(new Handler(thread.getLooper(), m -> replies.add(new Bundle(m.getData()))));
        ShadowBinder.setCallingUid(99_999); // an isolated uid: getNameForUid names nothing
        try {
            new Messenger(binder).send(msg);
        } finally {
            ShadowBinder.setCallingUid(Process.myUid());
        }
        Bundle reply = replies.poll(10, TimeUnit.SECONDS);
        thread.quitSafely();
        assertEquals(WireRule.failureReply("iso-1", "record", NO_CALLER, "permission_denied"), reply.getString(Intentbridge.ExtraResponse));
        assertEquals(List.of(), TestTool.recorded());
    }

    /** Calls the tool's AdbProvider from uid with request, on another thread, as a Binder call arrives. */
    private Future<Bundle> callProvider(int uid, String request) {
        Robolectric.buildService(TestToolService.class).create(); // the tool starts with its service
        AdbProvider provider = Robolectric.buildContentProvider(AdbProvider.class).create(TestTool.APP + ".mobilemcp.adb").get();
        return shell.submit(() -> {
            ShadowBinder.setCallingPid(Process.myPid() + 1); // another process: checkCallingPermission looks at it
            ShadowBinder.setCallingUid(uid);
            return provider.call("invoke", request, null);
        });
    }

    @Test
    public void theShell_throughTheProvider_records_withoutConsent() throws Exception {
        shadowOf(agent.app()).grantPermissions(Manifest.permission.DUMP);
        // Nobody was allowed anything: whoever holds adb controls the phone.
        String spec = callProvider(2000, WireRule.request("sh-1", "record", RECORD)).get(10, TimeUnit.SECONDS)
                .getString(Intentbridge.ExtraResponse);
        assertEquals(TestTool.recordedReply("sh-1", 1), spec);
        assertEquals(List.of("hi"), TestTool.recorded());
    }

    @Test
    public void anotherApp_throughTheProvider_isRefused() throws Exception {
        shadowOf(agent.app()).grantPermissions(Manifest.permission.DUMP);
        String spec = callProvider(10_123, WireRule.request("x-1", "record", RECORD)).get(10, TimeUnit.SECONDS)
                .getString(Intentbridge.ExtraResponse);
        assertEquals(WireRule.failureReply("x-1", "record", "this provider runs requests for adb's shell only (uid 2000, holding"
                + " android.permission.DUMP), not uid 10123; an app binds to the tool's Mobile-MCP service and sends its request"
                + " as a Message (binding mode)", "permission_denied"), spec);
        assertEquals(List.of(), TestTool.recorded());
    }

    @Test
    public void theShellsUid_withoutThePermission_isRefused() throws Exception {
        String spec = callProvider(2000, WireRule.request("x-2", "record", RECORD)).get(10, TimeUnit.SECONDS)
                .getString(Intentbridge.ExtraResponse);
        assertEquals(WireRule.failureReply("x-2", "record", "this provider runs requests for adb's shell only (uid 2000, holding"
                + " android.permission.DUMP), not uid 2000; an app binds to the tool's Mobile-MCP service and sends its request"
                + " as a Message (binding mode)", "permission_denied"), spec);
        assertEquals(List.of(), TestTool.recorded());
    }
}

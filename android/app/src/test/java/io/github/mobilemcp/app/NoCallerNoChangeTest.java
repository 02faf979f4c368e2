package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.app.Activity;
import android.content.Intent;
import android.content.pm.ApplicationInfo;
import android.os.Bundle;
import android.os.Process;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.AdbProvider;
import io.github.mobilemcp.sdk.testing.McpTestRunner;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * can use. Each attacker's steps, then that no SMS was sent.
 */
@RunWith(McpTestRunner.class)
public class NoCallerNoChangeTest {
    private static final String SEND = "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}";
    static final String NO_CALLER = "send_sms changes something on this phone, and this request names no caller that Android"
            + " vouches for (an Intent without a callback, or a process without a package), so it never runs; an app binds to"
            + " this tool's service (binding mode), and adb sends it through the tool's shell-only provider, as 'mobilemcp adb call' does";

    @Rule public final FakeAgent agent = new FakeAgent();

    private final ExecutorService shell = Executors.newSingleThreadExecutor();

    @After
    public void tearDown() {
        shell.shutdownNow();
        ShadowBinder.reset();
    }

    /** Another app's startForegroundService with only the request extra, as adb's am sends it. */
    private String sendWithoutCallback(String id) throws Exception {
        agent.setSims(FakeAgent.SIM_14);
        agent.start(ToolService.class, new Intent()
                .setClassName(agent.app, ToolService.class.getName())
                .putExtra(Intentbridge.ExtraRequest, FakeAgent.specRequest(id, "send_sms", SEND)));
        FakeAgent.idleMainUntil("the service to stop itself", () -> shadowOf(agent.service().get()).isStoppedBySelf());
        List<ShadowLog.LogItem> logs = ShadowLog.getLogsForTag(ToolService.LOG_TAG);
        assertEquals(1, logs.size());
        return logs.get(0).msg;
    }

    @Test
    public void anIntentWithoutACallback_sendsNoSms_inADebuggableBuild() throws Exception {
        agent.app.getApplicationInfo().flags |= ApplicationInfo.FLAG_DEBUGGABLE;
        assertEquals(FakeAgent.failureReply("n-1", "send_sms", NO_CALLER, "permission_denied"), sendWithoutCallback("n-1"));
        assertTrue("no SMS", agent.nothingSent());
    }

    @Test
    public void anIntentWithoutACallback_sendsNoSms_withTheDeveloperSwitchOn() throws Exception {
        agent.tool().setDeveloperSwitch(true);
        assertEquals(FakeAgent.failureReply("n-2", "send_sms", NO_CALLER, "permission_denied"), sendWithoutCallback("n-2"));
        assertTrue("no SMS", agent.nothingSent());
    }

    /** An isolated process (a uid Android names no package for) binds and sends send_sms. */
    @Test
    public void aBindingFromAUidWithoutAPackage_sendsNoSms() throws Exception {
        agent.setSims(FakeAgent.SIM_14);
        android.os.IBinder binder = Robolectric.buildService(ToolService.class).create().get()
                .onBind(new Intent(Intentbridge.ServiceAction));
        java.util.concurrent.BlockingQueue<Bundle> replies = new java.util.concurrent.LinkedBlockingQueue<>();
        android.os.HandlerThread thread = new android.os.HandlerThread("isolated-replies");
        thread.start();
        android.os.Message msg = android.os.Message.obtain(null, io.github.mobilemcp.sdk.McpToolService.MSG_INVOKE);
        Bundle data = new Bundle();
        data.putString(Intentbridge.ExtraRequest, FakeAgent.specRequest("iso-1", "send_sms", SEND));
        msg.setData(data);
        msg.replyTo = new android.os.Messenger(new android.os.Handler(thread.getLooper(), m -> replies.add(new Bundle(m.getData()))));
        ShadowBinder.setCallingUid(99_999); // an isolated uid: getNameForUid names nothing
        try {
            new android.os.Messenger(binder).send(msg);
        } finally {
            ShadowBinder.setCallingUid(Process.myUid());
        }
        Bundle reply = replies.poll(10, TimeUnit.SECONDS);
        thread.quitSafely();
        assertEquals(FakeAgent.failureReply("iso-1", "send_sms", NO_CALLER, "permission_denied"), reply.getString(Intentbridge.ExtraResponse));
        assertTrue("no SMS", agent.nothingSent());
    }

    /** Calls the tool's AdbProvider from uid with request, on another thread, as a Binder call arrives. */
    private Future<Bundle> callProvider(int uid, String request) {
        Robolectric.buildService(ToolService.class).create(); // the tool starts with its service
        AdbProvider provider = Robolectric.buildContentProvider(AdbProvider.class).create("io.github.mobilemcp.app.mobilemcp.adb").get();
        return shell.submit(() -> {
            ShadowBinder.setCallingPid(Process.myPid() + 1); // another process: checkCallingPermission looks at it
            ShadowBinder.setCallingUid(uid);
            return provider.call(AdbProvider.METHOD_INVOKE, request, null);
        });
    }

    @Test
    public void theShell_throughTheProvider_sends() throws Exception {
        agent.setSims(FakeAgent.SIM_14);
        shadowOf(agent.app).grantPermissions(Manifest.permission.DUMP);
        Future<Bundle> reply = callProvider(2000, FakeAgent.specRequest("sh-1", "send_sms", SEND));
        agent.awaitSend(14).getSentIntents().get(0).send(agent.app, Activity.RESULT_OK, null);
        FakeAgent.idleMainUntil("the shell's reply", reply::isDone); // the sent result arrives on the main thread
        String spec = reply.get(10, TimeUnit.SECONDS).getString(Intentbridge.ExtraResponse);
        assertTrue(spec, spec.contains("\"status\":\"success\",\"message\":\"SMS sent to +36201234567\""));
    }

    @Test
    public void anotherApp_throughTheProvider_isRefused() throws Exception {
        agent.setSims(FakeAgent.SIM_14);
        shadowOf(agent.app).grantPermissions(Manifest.permission.DUMP);
        String spec = callProvider(10_123, FakeAgent.specRequest("x-1", "send_sms", SEND)).get(10, TimeUnit.SECONDS)
                .getString(Intentbridge.ExtraResponse);
        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"x-1\",\"capability\":{\"id\":\"send_sms\"},\"status\":\"failure\","
                + "\"message\":\"this provider runs requests for adb's shell only (uid 2000, holding android.permission.DUMP),"
                + " not uid 10123; an app binds to the tool's Mobile-MCP service and sends its request as a Message (binding mode)\","
                + "\"error_code\":\"permission_denied\"}}}", spec);
        assertTrue("no SMS", agent.nothingSent());
    }

    @Test
    public void theShellsUid_withoutThePermission_isRefused() throws Exception {
        agent.setSims(FakeAgent.SIM_14);
        String spec = callProvider(2000, FakeAgent.specRequest("x-2", "send_sms", SEND)).get(10, TimeUnit.SECONDS)
                .getString(Intentbridge.ExtraResponse);
        assertTrue(spec, spec.contains("\"error_code\":\"permission_denied\""));
        assertTrue("no SMS", agent.nothingSent());
    }
}

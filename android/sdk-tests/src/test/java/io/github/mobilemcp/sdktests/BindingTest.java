package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.NotificationManager;
import android.content.Intent;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.IBinder;
import android.os.Looper;
import android.os.Message;
import android.os.Messenger;
import android.os.Process;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.internal.BindingMessages;
import io.github.mobilemcp.sdk.testing.InstalledApps;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;
import org.robolectric.android.controller.ServiceController;

import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowBinder;
import org.robolectric.shadows.ShadowLog;

/**
 * Binding mode from the tool's side, with raw Messages as any agent would send them: MSG_INVOKE
 * with the request in its data and a replyTo, answered by MSG_RESULT with the Intent reply's extras.
 */
@RunWith(McpTestRunner.class)
@Config(sdk = Config.ALL_SDKS) // every level of robolectric.sdks: the code under test branches on SDK_INT
public class BindingTest {
    private static final String APP = TestTool.APP;
    private static final String RECORD = "{\"text\":\"hi\"}";

    @Rule public final WireRule agent = new WireRule(TestToolService.class).withoutConsent();

    @Rule(order = 1) public final ClosedGate gate = new ClosedGate();

    private ServiceController<TestToolService> service;
    private Messenger tool;
    private HandlerThread replyThread;
    private Messenger replyTo;
    /** Copies of the reply Messages, as they arrived. */
    private final LinkedBlockingQueue<Message> replies = new LinkedBlockingQueue<>();

    @Before
    public void bind() {
        // What getNameForUid answers on a device for this app's uid (Robolectric knows no names).
        shadowOf(agent.app().getPackageManager()).setNameForUid(Process.myUid(), APP);
        service = Robolectric.buildService(TestToolService.class).create();
        IBinder binder = service.get().onBind(new Intent(Intentbridge.ServiceAction));
        tool = new Messenger(binder);
        replyThread = new HandlerThread("test-replies");
        replyThread.start();
        replyTo = new Messenger(new Handler(replyThread.getLooper(), msg -> {
            Message copy = Message.obtain();
            copy.copyFrom(msg);
            replies.add(copy);
            return true;
        }));
    }

    @After
    public void unbind() {
        service.destroy();
        replyThread.quitSafely();
    }

    private Message invoke(String extra, String request, int arg1) {
        Message msg = Message.obtain(null, BindingMessages.MSG_INVOKE, arg1, 0);
        Bundle data = new Bundle();
        data.putString(extra, request);
        msg.setData(data);
        msg.replyTo = replyTo;
        return msg;
    }

    /** Waits for the next reply Message, idling the main looper meanwhile. */
    private Message awaitReply() throws InterruptedException {
        Message reply = null;
        for (long deadline = System.currentTimeMillis() + WireRule.WAIT_MILLIS;
                reply == null && System.currentTimeMillis() < deadline; ) {
            shadowOf(Looper.getMainLooper()).idle();
            reply = replies.poll(2, TimeUnit.MILLISECONDS);
        }
        assertNotNull("no reply Message", reply);
        return reply;
    }

    @Test
    public void aMessageGetsItsReplyAsAMessage() throws Exception {
        tool.send(invoke(Intentbridge.ExtraRequest, WireRule.request("b1", "inspect", "{\"text\":\"hi\"}"), 41));

        Message reply = awaitReply();
        assertEquals(BindingMessages.MSG_RESULT, reply.what);
        assertEquals("arg1 is echoed", 41, reply.arg1);
        assertEquals(new TreeSet<>(List.of(Intentbridge.ExtraResponse)), new TreeSet<>(reply.getData().keySet()));
        assertEquals(TestTool.inspectedReply("b1", "hi", APP), reply.getData().getString(Intentbridge.ExtraResponse));
    }

    @Test
    public void prototypeRequest_getsThePrototypeExtrasToo() throws Exception {
        tool.send(invoke("request", "{\"id\":\"p1\",\"capability\":{\"id\":\"inspect\",\"input\":{}}}", 0));

        Bundle data = awaitReply().getData();
        assertEquals(new TreeSet<>(List.of("mcp_request_id", "mobile-mcp-response", "response")), new TreeSet<>(data.keySet()));
        assertEquals("p1", data.getString("mcp_request_id"));
        assertEquals("{\"id\":\"p1\",\"capability\":{\"id\":\"inspect\"},\"status\":\"failure\","
                + "\"message\":\"inspect: text is required (string: Any text.)\",\"error_code\":\"invalid_arguments\"}",
                data.getString("response"));
        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":" + data.getString("response") + "}}",
                data.getString(Intentbridge.ExtraResponse));
    }

    @Test
    public void oneBindingCarriesManyRequests_andTheCallerIsTheSendingUidsPackage() throws Exception {
        // Another app binds: Binder sets sendingUid, and PackageManager names its package.
        ShadowBinder.setCallingUid(10123);
        InstalledApps.install(agent.app(), "com.example.assistant", 10123, "the assistant's certificate");
        tool.send(invoke(Intentbridge.ExtraRequest, WireRule.request("s1", "record", RECORD), 1));
        tool.send(invoke(Intentbridge.ExtraRequest, WireRule.request("g1", "inspect", "{\"text\":\"hi\"}"), 2));

        // Workers run them at once, so the replies come as they finish; arg1 tells them apart.
        Message first = awaitReply();
        Message second = awaitReply();
        if (first.arg1 == 2) {
            Message swap = first;
            first = second;
            second = swap;
        }
        assertEquals(1, first.arg1);
        assertEquals(WireRule.failureReply("s1", "record", "the user has not yet allowed com.example.assistant to use record;"
                + " a notification on the phone asks them, so retry once they allow it", "consent_required"),
                first.getData().getString(Intentbridge.ExtraResponse));
        assertEquals(2, second.arg1);
        assertEquals(TestTool.inspectedReply("g1", "hi", "com.example.assistant"), second.getData().getString(Intentbridge.ExtraResponse));
        assertEquals(List.of(), TestTool.recorded());
        assertNotNull("the assistant's user is asked", shadowOf(agent.app().getSystemService(NotificationManager.class))
                .getNotification("com.example.assistant", TestTool.CONSENT_NOTIFICATION_ID));

        agent.settings().allow("com.example.assistant");
        tool.send(invoke(Intentbridge.ExtraRequest, WireRule.request("s2", "record", RECORD), 3));
        assertEquals(TestTool.recordedReply("s2", 1), awaitReply().getData().getString(Intentbridge.ExtraResponse));
        assertEquals(List.of("hi"), TestTool.recorded());
    }

    @Test
    public void aUidWithoutAName_isTreatedAsNoCaller() throws Exception {
        ShadowBinder.setCallingUid(10999); // no package has it
        tool.send(invoke(Intentbridge.ExtraRequest, WireRule.request("u1", "inspect", "{\"text\":\"hi\"}"), 0));

        assertEquals(WireRule.failureReply("u1", "inspect", CallbackTest.NO_CALLBACK_REFUSAL, "permission_denied"),
                awaitReply().getData().getString(Intentbridge.ExtraResponse));
    }

    @Test
    public void withoutReplyTo_theRequestIsLoggedAndDropped() throws Exception {
        agent.settings().allow(APP);
        Message msg = invoke(Intentbridge.ExtraRequest, WireRule.request("n1", "record", RECORD), 0);
        msg.replyTo = null;
        tool.send(msg);
        Message unknown = Message.obtain(null, 99);
        unknown.replyTo = replyTo;
        tool.send(unknown);

        WireRule.idleUntil("two log lines", () -> ShadowLog.getLogsForTag(McpToolService.LOG_TAG).size() == 2);
        List<ShadowLog.LogItem> logs = ShadowLog.getLogsForTag(McpToolService.LOG_TAG);
        assertEquals(Log.WARN, logs.get(0).type);
        assertEquals("dropped a binding request from io.github.mobilemcp.sdktests without replyTo: there is nowhere to send its reply",
                logs.get(0).msg);
        assertEquals(Log.WARN, logs.get(1).type);
        assertEquals("ignored a binding message with what=99; send MSG_INVOKE (1)", logs.get(1).msg);
        Thread.sleep(200); // had it been queued, the worker would have recorded by now
        assertEquals(List.of(), TestTool.recorded());
        assertNull(replies.poll());
    }

    @Test
    public void messagesArriveOffTheMainThread_andTheMainLooperStaysFree() throws Exception {
        tool.send(invoke(Intentbridge.ExtraRequest, WireRule.request("t1", "hold", "{\"name\":\"t1\"}"), 0));
        // The main looper is paused and never idled here: the request still reaches the handler.
        long deadline = System.currentTimeMillis() + WireRule.WAIT_MILLIS;
        while (!Gate.inside().equals(List.of("t1"))) {
            assertTrue("the request needs the main thread", System.currentTimeMillis() < deadline);
            Thread.sleep(2);
        }
        assertEquals(Looper.getMainLooper().getThread(), Thread.currentThread());
        Gate.open();
        assertEquals(TestTool.heldReply("t1", "t1"), awaitReply().getData().getString(Intentbridge.ExtraResponse));
    }
}

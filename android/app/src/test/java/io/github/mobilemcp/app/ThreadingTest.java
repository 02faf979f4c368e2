package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.content.Intent;
import android.os.Handler;
import android.os.Looper;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.testing.McpTestRunner;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.android.controller.ServiceController;
import org.robolectric.shadows.ShadowLog;
import org.robolectric.shadows.ShadowSmsManager;

/**
 * The engine never runs on the main thread, and overlapping requests do not wait for each other: the
 * SDK runs up to McpToolService.MAX_CONCURRENT_CALLS at once, and the service stops itself only after
 * the last reply.
 */
@RunWith(McpTestRunner.class)
public class ThreadingTest {
    private static final String SEND = "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}";

    @Rule public final FakeAgent agent = new FakeAgent();

    @Test
    public void mainLooperStaysFreeWhileTheEngineIsBlocked() throws Exception {
        assertSame("the test thread is the main thread", Looper.getMainLooper().getThread(), Thread.currentThread());
        agent.bind(FakeAgent.specRequest("th-1", "send_sms", SEND));
        // send() has returned: the binding thread did not wait for the engine.
        ShadowSmsManager.TextMultipartParams sent = agent.awaitSend(14);

        // The worker is now parked inside Go -> Java, on the sent-results latch, for up to 58 s.
        // Work posted to the main looper still runs at once.
        AtomicBoolean ran = new AtomicBoolean();
        new Handler(Looper.getMainLooper()).post(() -> ran.set(true));
        shadowOf(Looper.getMainLooper()).idle();
        assertTrue("main looper ran a task while the engine waited", ran.get());
        assertEquals(List.of(), agent.replies);

        sent.getSentIntents().get(0).send(agent.app, Activity.RESULT_OK, null);
        assertTrue(agent.awaitSpecReply().contains("\"id\":\"th-1\""));
    }
}

package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;

import org.junit.After;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * What AndroidPlatform tells Go when the phone cannot do what was asked: missing runtime
 * permissions become permission_denied replies that say how to fix them, and no SIM is a
 * platform_error.
 */
@RunWith(GoTestRunner.class)
public class PlatformTest {
    private final FakeAgent agent = new FakeAgent();

    @After
    public void tearDown() {
        agent.stop();
    }

    @Test
    public void sendSmsPermissionMissing_isPermissionDenied() throws Exception {
        shadowOf(agent.app).denyPermissions(Manifest.permission.SEND_SMS);
        agent.start(FakeAgent.specRequest("pd-1", "send_sms",
                "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}"));

        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"pd-1\",\"capability\":{\"id\":\"send_sms\"},"
                + "\"status\":\"failure\",\"message\":\"the mobilemcp app is not allowed to send SMS: "
                + "open mobilemcp on the phone and allow SMS (android.permission.SEND_SMS)\","
                + "\"error_code\":\"permission_denied\"}}}",
                agent.awaitSpecReply());
        assertTrue(agent.nothingSent());
    }

    @Test
    public void phoneStatePermissionMissing_isPermissionDenied() throws Exception {
        shadowOf(agent.app).denyPermissions(Manifest.permission.READ_PHONE_STATE);
        agent.start(FakeAgent.specRequest("pd-2", "get_sms_subscriptions", "{}"));

        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"pd-2\",\"capability\":{\"id\":\"get_sms_subscriptions\"},"
                + "\"status\":\"failure\",\"message\":\"the mobilemcp app is not allowed to read the phone's SIM subscriptions: "
                + "open mobilemcp on the phone and allow Phone (android.permission.READ_PHONE_STATE)\","
                + "\"error_code\":\"permission_denied\"}}}",
                agent.awaitSpecReply());
    }

    @Test
    public void noSim_listsNothing() throws Exception {
        agent.setSims();
        agent.start(FakeAgent.specRequest("ns-1", "get_sms_subscriptions", "{}"));

        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"ns-1\",\"capability\":{\"id\":\"get_sms_subscriptions\",\"output\":["
                + "{\"name\":\"count\",\"type\":\"integer\",\"value\":0},{\"name\":\"subscriptions\",\"type\":\"array\",\"value\":[]}]},"
                + "\"status\":\"success\",\"message\":\"{\\\"count\\\":0,\\\"subscriptions\\\":[]}\"}}}",
                agent.awaitSpecReply());
    }

    @Test
    public void noSim_cannotSend() throws Exception {
        agent.setSims();
        agent.start(FakeAgent.specRequest("ns-2", "send_sms", "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\"}"));

        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"ns-2\",\"capability\":{\"id\":\"send_sms\"},"
                + "\"status\":\"failure\",\"message\":\"no active SIM subscription can send SMS; insert or enable a SIM\","
                + "\"error_code\":\"platform_error\"}}}",
                agent.awaitSpecReply());
        assertTrue(agent.nothingSent());
    }
}

package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.annotation.Config;

/**
 * What AndroidPlatform tells Go when the phone cannot do what was asked: missing runtime
 * permissions become permission_denied replies that say how to fix them, and no SIM is a
 * platform_error.
 */
@RunWith(McpTestRunner.class)
@Config(sdk = Config.ALL_SDKS) // every level of robolectric.sdks: the code under test branches on SDK_INT
public class PlatformTest {
    @Rule public final WireRule agent = new WireRule(ToolService.class);
    private final Phone phone = new Phone();

    @Test
    public void sendSmsPermissionMissing_isPermissionDenied() throws Exception {
        shadowOf(agent.app()).denyPermissions(Manifest.permission.SEND_SMS);
        assertEquals(WireRule.failureReply("pd-1", "send_sms", "the mobilemcp app is not allowed to send SMS:"
                + " open mobilemcp on the phone and allow SMS (android.permission.SEND_SMS)", "permission_denied"),
                agent.sendBound(WireRule.request("pd-1", "send_sms",
                        "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\",\"subscription_id\":14}"), WireRule.Extras.SPEC).getString(Intentbridge.ExtraResponse));
        assertTrue(phone.nothingSent());
    }

    @Test
    public void phoneStatePermissionMissing_isPermissionDenied() throws Exception {
        shadowOf(agent.app()).denyPermissions(Manifest.permission.READ_PHONE_STATE);
        assertEquals(WireRule.failureReply("pd-2", "get_sms_subscriptions", "the mobilemcp app is not allowed to read"
                + " the phone's SIM subscriptions: open mobilemcp on the phone and allow Phone (android.permission.READ_PHONE_STATE)",
                "permission_denied"),
                agent.send(WireRule.request("pd-2", "get_sms_subscriptions", "{}"), WireRule.Extras.SPEC).getStringExtra(Intentbridge.ExtraResponse));
    }

    @Test
    public void noSim_listsNothingAndCannotSend() throws Exception {
        phone.setSims();
        assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"ns-1\",\"capability\":{\"id\":\"get_sms_subscriptions\",\"output\":["
                + "{\"name\":\"count\",\"type\":\"integer\",\"value\":0},{\"name\":\"subscriptions\",\"type\":\"array\",\"value\":[]}]},"
                + "\"status\":\"success\",\"message\":\"{\\\"count\\\":0,\\\"subscriptions\\\":[]}\"}}}",
                agent.send(WireRule.request("ns-1", "get_sms_subscriptions", "{}"), WireRule.Extras.SPEC).getStringExtra(Intentbridge.ExtraResponse));

        agent.replies().clear();
        assertEquals(WireRule.failureReply("ns-2", "send_sms",
                "no active SIM subscription can send SMS; insert or enable a SIM", "platform_error"),
                agent.sendBound(WireRule.request("ns-2", "send_sms", "{\"to_phone_number\":\"+36201234567\",\"sms_text\":\"hi\"}"), WireRule.Extras.SPEC).getString(Intentbridge.ExtraResponse));
        assertTrue(phone.nothingSent());
    }
}

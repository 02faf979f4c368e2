package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.app.Application;
import android.telephony.SubscriptionManager;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.intentbridge.Tool;
import io.github.mobilemcp.sdk.internal.DescriptorTree;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;
import io.github.mobilemcp.smsapp.Smsapp;

import java.util.List;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowSubscriptionManager.SubscriptionInfoBuilder;

/**
 * Runs in a second Robolectric sandbox (its config differs from the other tests'), as a test at
 * another SDK level would. With the stock RobolectricTestRunner, whichever sandbox loaded
 * libmobilemcp.so second would fail with "Native Library ... already loaded in another classloader";
 * McpTestRunner makes Go reachable from every sandbox.
 */
@RunWith(McpTestRunner.class)
@Config(instrumentedPackages = {"io.github.mobilemcp.app"}) // only to force a different sandbox
public class SecondSandboxTest {

    @Test
    public void goWorksInASecondSandbox() throws Exception {
        Application app = RuntimeEnvironment.getApplication();
        // gobind's classes come from the test class loader, the app's from this sandbox's.
        assertNotSame(AndroidPlatform.class.getClassLoader(), Bridge.class.getClassLoader());

        shadowOf(app).grantPermissions(Manifest.permission.READ_PHONE_STATE);
        shadowOf(app.getSystemService(SubscriptionManager.class)).setActiveSubscriptionInfoList(List.of(
                SubscriptionInfoBuilder.newBuilder().setId(7).setSimSlotIndex(0)
                        .setCarrierName("C").setDisplayName("D").buildSubscriptionInfo()));
        AndroidPlatform platform = new AndroidPlatform(app);
        Bridge bridge = Intentbridge.openBridge("");
        try {
            // The app's descriptor, as ToolService's engine serves it.
            Tool tool = Intentbridge.newTool("res/xml/mcp_capabilities.xml",
                    DescriptorTree.read(app.getResources(), R.xml.mcp_capabilities));
            Smsapp.addSMS(tool, platform);
            bridge.start(tool);
            String reply = DirectCall.handle(bridge, WireRule.request("s2", "get_sms_subscriptions", "{}"), "test").json();
            assertEquals("{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"s2\","
                    + "\"capability\":{\"id\":\"get_sms_subscriptions\",\"output\":["
                    + "{\"name\":\"count\",\"type\":\"integer\",\"value\":1},"
                    + "{\"name\":\"subscriptions\",\"type\":\"array\",\"value\":["
                    + "{\"subscription_id\":7,\"sim_slot_index\":0,\"carrier_name\":\"C\",\"display_name\":\"D\"}]}]},"
                    + "\"status\":\"success\",\"message\":\"{\\\"count\\\":1,\\\"subscriptions\\\":["
                    + "{\\\"subscription_id\\\":7,\\\"sim_slot_index\\\":0,\\\"carrier_name\\\":\\\"C\\\",\\\"display_name\\\":\\\"D\\\"}]}\"}}}",
                    reply);
        } finally {
            bridge.close();
        }
    }
}

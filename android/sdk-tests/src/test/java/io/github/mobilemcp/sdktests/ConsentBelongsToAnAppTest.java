package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.NotificationManager;
import android.content.Intent;
import android.content.pm.ResolveInfo;
import android.net.Uri;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.PackageRemovedReceiver;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.InstalledApps;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.Locale;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * Consent belongs to an app, not a name (docs/security-phone.md, "A decision belongs to an app"): a decision is kept with the package's
 * signing certificate (its SHA-256), dropped when the package is removed (PACKAGE_FULLY_REMOVED) or
 * found signed by another certificate, and another app that takes the name is asked again.
 */
@RunWith(McpTestRunner.class)
public class ConsentBelongsToAnAppTest {
    private static final String ASSISTANT = "com.example.assistant";

    @Rule public final WireRule agent = new WireRule(TestToolService.class).withoutConsent();

    private static String sha256(String certificate) throws Exception {
        StringBuilder hex = new StringBuilder();
        for (byte b : MessageDigest.getInstance("SHA-256").digest(certificate.getBytes(StandardCharsets.UTF_8))) {
            hex.append(String.format(Locale.ROOT, "%02x", b));
        }
        return hex.toString();
    }

    /** Sends record as the assistant, by binding, and returns the reply. */
    private String record(String id) throws Exception {
        agent.replies().clear();
        agent.sendMessageAs(ASSISTANT, Intentbridge.ExtraRequest, WireRule.request(id, "record", "{\"text\":\"" + id + "\"}"));
        return agent.awaitReplyJson();
    }

    private static String consentRequired(String id) {
        return WireRule.failureReply(id, "record", "the user has not yet allowed " + ASSISTANT + " to use record;"
                + " a notification on the phone asks them, so retry once they allow it", "consent_required");
    }

    @Test
    public void aDecisionIsKeptWithTheSigner_andDroppedWhenTheAppGoesOrItsSignerChanges() throws Exception {
        InstalledApps.install(agent.app(), ASSISTANT, 10_301, "the assistant's certificate");
        assertEquals(consentRequired("s1"), record("s1"));
        agent.settings().allow(ASSISTANT);
        String decisions = EngineAccess.bridge(agent.app()).callersJSON();
        assertTrue(decisions, decisions.startsWith("[{\"package\":\"" + ASSISTANT + "\",\"signer\":\""
                + sha256("the assistant's certificate") + "\",\"decision\":\"allowed\","));
        assertEquals(TestTool.recordedReply("s2", 1), record("s2"));

        // Removed from the phone: Android broadcasts it to the receiver the SDK's manifest declares
        // (Robolectric matches the manifest's filter, but delivers only to the component named),
        // and the decision goes.
        Intent removed = new Intent(Intent.ACTION_PACKAGE_FULLY_REMOVED, Uri.fromParts("package", ASSISTANT, null));
        ResolveInfo receiver = null;
        for (ResolveInfo r : agent.app().getPackageManager().queryBroadcastReceivers(removed, 0)) {
            if (r.activityInfo.name.equals(PackageRemovedReceiver.class.getName())) {
                receiver = r;
            }
        }
        assertNotNull("the SDK's manifest declares PackageRemovedReceiver for it", receiver);
        assertFalse("only the system may send it", receiver.activityInfo.exported);
        shadowOf(agent.app().getPackageManager()).removePackage(ASSISTANT);
        agent.app().sendBroadcast(removed.setClassName(agent.app(), receiver.activityInfo.name));
        WireRule.idleUntil("the decision to go", () -> EngineAccess.bridge(agent.app()).callersJSON().equals("[]"));

        // Another app installed under the name is asked, and records nothing meanwhile.
        InstalledApps.install(agent.app(), ASSISTANT, 10_302, "another developer's certificate");
        agent.app().getSystemService(NotificationManager.class).cancelAll();
        assertEquals(consentRequired("s3"), record("s3"));
        assertNotNull("its user is asked", shadowOf(agent.app().getSystemService(NotificationManager.class))
                .getNotification(ASSISTANT, TestTool.CONSENT_NOTIFICATION_ID));
        assertEquals(List.of("s2"), TestTool.recorded());
    }

    @Test
    public void aSignerThatChangedWithoutTheBroadcast_isAskedAgain() throws Exception {
        InstalledApps.install(agent.app(), ASSISTANT, 10_303, "the assistant's certificate");
        agent.settings().allow(ASSISTANT);
        assertEquals(TestTool.recordedReply("t1", 1), record("t1"));

        // The broadcast was missed (the tool app was stopped): the next call finds the new signer.
        InstalledApps.sign(agent.app(), ASSISTANT, "another developer's certificate");
        assertEquals(consentRequired("t2"), record("t2"));
        assertEquals("[]", EngineAccess.bridge(agent.app()).callersJSON());
        assertEquals(List.of("t1"), TestTool.recorded());
    }
}

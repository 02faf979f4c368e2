package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.content.ComponentName;
import android.content.Intent;
import android.content.pm.ActivityInfo;
import android.content.pm.PackageInfo;
import android.content.pm.PackageManager;
import android.net.Uri;
import android.view.WindowManager;

import io.github.mobilemcp.sdk.internal.ConsentConfirmActivity;
import io.github.mobilemcp.sdk.ToolSettingsActivity;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.Arrays;
import java.util.List;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.annotation.Config;

/**
 * The screens where the user decides, as Android sets them up (docs/security.md, "An app that draws
 * over the screen"): from API 31 they hide other apps' overlays, so no overlay can lie over Allow
 * while the user taps; and the consent confirmation opens in a task of its own, out of the recents
 * list, so that no app's task can take it in (StrandHogg: an activity with the tool's task affinity
 * waiting in the back stack).
 */
@RunWith(McpTestRunner.class)
public class ConsentScreenTest {
    /** WindowManager.LayoutParams.SYSTEM_FLAG_HIDE_NON_SYSTEM_OVERLAY_WINDOWS (hidden), which setHideOverlayWindows sets. */
    private static final int HIDES_OVERLAYS = 0x00080000;
    private static final String HIDE_OVERLAY_WINDOWS = "android.permission.HIDE_OVERLAY_WINDOWS";

    @Rule public final WireRule agent = new WireRule(TestToolService.class).withoutConsent();

    private static boolean hidesOverlays(Activity screen) {
        WindowManager.LayoutParams attrs = screen.getWindow().getAttributes();
        return (attrs.privateFlags & HIDES_OVERLAYS) != 0;
    }

    @Test
    @Config(sdk = {31, 33, 34, 35})
    public void theConsentAndSettingsScreens_hideOtherAppsOverlays() {
        // Android grants a normal permission that the manifest declares at install.
        shadowOf(agent.app()).grantPermissions(HIDE_OVERLAY_WINDOWS);
        Intent confirm = new Intent(agent.app(), ConsentConfirmActivity.class).setData(Uri.fromParts("package", TestTool.APP, null));
        assertTrue("the consent confirmation", hidesOverlays(Robolectric.buildActivity(ConsentConfirmActivity.class, confirm).setup().get()));
        assertTrue("the settings screen", hidesOverlays(Robolectric.buildActivity(ToolSettingsActivity.class).setup().get()));
    }

    @Test
    public void theSdksManifest_declaresHideOverlayWindows() throws Exception {
        PackageInfo app = agent.app().getPackageManager().getPackageInfo(TestTool.APP, PackageManager.GET_PERMISSIONS);
        List<String> requested = Arrays.asList(app.requestedPermissions);
        assertTrue(requested + " has " + HIDE_OVERLAY_WINDOWS, requested.contains(HIDE_OVERLAY_WINDOWS));
    }

    /** An app whose task has the tool's affinity waits in the back stack; the notification's Allow opens the question. */
    @Test
    public void theConsentConfirmation_opensInATaskOfItsOwn_outOfRecents() throws Exception {
        PackageManager pm = agent.app().getPackageManager();
        ActivityInfo confirm = pm.getActivityInfo(new ComponentName(agent.app(), ConsentConfirmActivity.class), 0);
        assertNull("no task affinity: never the tool's task, nor another app's", confirm.taskAffinity);
        assertEquals("out of the recents list", ActivityInfo.FLAG_EXCLUDE_FROM_RECENTS, confirm.flags & ActivityInfo.FLAG_EXCLUDE_FROM_RECENTS);
        assertEquals("not exported", false, confirm.exported);
        // The settings screen keeps the app's affinity: an app may make it its launcher screen.
        assertNotEquals(null, pm.getActivityInfo(new ComponentName(agent.app(), ToolSettingsActivity.class), 0).taskAffinity);
    }
}

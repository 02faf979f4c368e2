package io.github.mobilemcp.app;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.app.Activity;
import android.os.Looper;
import android.os.SystemClock;
import android.view.MotionEvent;
import android.view.WindowManager;
import android.widget.CompoundButton;
import io.github.mobilemcp.sdk.TouchGuard;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.Touch;

import java.time.Duration;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.annotation.Config;

/**
 * The app's own screen shows the tool's Allow and Deny buttons and the switches that open the MCP
 * server, so it keeps other apps' overlays away as the SDK's screens do: hidden from Android 12,
 * and a touch through or under one anywhere on the screen makes the guarded controls ignore the
 * next taps.
 */
@RunWith(McpTestRunner.class)
public class MainScreenOverlaysTest {
    /** WindowManager.LayoutParams.SYSTEM_FLAG_HIDE_NON_SYSTEM_OVERLAY_WINDOWS (hidden), which setHideOverlayWindows sets. */
    private static final int HIDES_OVERLAYS = 0x00080000;

    @Test
    @Config(sdk = {31, 33, 34, 35})
    public void theMainScreen_hidesOtherAppsOverlays() {
        shadowOf(RuntimeEnvironment.getApplication()).grantPermissions("android.permission.HIDE_OVERLAY_WINDOWS");
        Activity screen = Robolectric.buildActivity(MainActivity.class).setup().get();
        WindowManager.LayoutParams attrs = screen.getWindow().getAttributes();
        assertTrue("the main screen hides overlays", (attrs.privateFlags & HIDES_OVERLAYS) != 0);
    }

    @Test
    public void aTouchThroughAnOverlayOnTheScreensCorner_armsTheServersSwitch() {
        shadowOf(RuntimeEnvironment.getApplication()).grantPermissions(Manifest.permission.SEND_SMS,
                Manifest.permission.READ_PHONE_STATE, Manifest.permission.POST_NOTIFICATIONS);
        MainActivity screen = Robolectric.buildActivity(MainActivity.class).setup().get();
        CompoundButton lan = screen.findViewById(R.id.mcp_lan);
        settle();

        Touch.tap(screen, MotionEvent.FLAG_WINDOW_IS_OBSCURED); // through an overlay, on the corner
        SystemClock.sleep(50); // the overlay is gone
        Touch.tap(lan, 0);
        assertFalse("a tap just after a touch through an overlay switches nothing", lan.isChecked());

        settle(); // the user reads the screen, then taps
        Touch.tap(lan, 0);
        assertTrue("the user's own tap switches it", lan.isChecked());
    }

    /** Lets the screen settle: taps in its first moments are ignored. */
    private static void settle() {
        shadowOf(Looper.getMainLooper()).idleFor(Duration.ofMillis(TouchGuard.SETTLE_MILLIS + 100));
    }
}

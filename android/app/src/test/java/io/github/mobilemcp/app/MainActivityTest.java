package io.github.mobilemcp.app;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.app.Application;
import android.content.Context;
import android.content.pm.ApplicationInfo;
import android.content.pm.PackageManager;
import android.widget.Switch;
import android.widget.TextView;

import io.github.mobilemcp.sdk.testing.GoTestRunner;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.shadows.ShadowActivity;

/** The launcher screen asks for what is missing, and says what still is. */
@RunWith(GoTestRunner.class) // not for Go: one runner keeps every test class in one sandbox
public class MainActivityTest {
    private static final String[] ALL = {
        Manifest.permission.SEND_SMS, Manifest.permission.READ_PHONE_STATE, Manifest.permission.POST_NOTIFICATIONS,
    };

    private final Application app = RuntimeEnvironment.getApplication();

    private static String status(MainActivity activity) {
        return ((TextView) activity.findViewById(R.id.permission_status)).getText().toString();
    }

    @Test
    public void firstStart_asksForEveryMissingPermission() {
        shadowOf(app).grantPermissions(Manifest.permission.READ_PHONE_STATE);
        ActivityController<MainActivity> controller = Robolectric.buildActivity(MainActivity.class).setup();
        MainActivity activity = controller.get();

        ShadowActivity.PermissionsRequest request = shadowOf(activity).getLastRequestedPermission();
        assertEquals(MainActivity.REQUEST_PERMISSIONS, request.requestCode);
        assertArrayEquals(new String[] {Manifest.permission.SEND_SMS, Manifest.permission.POST_NOTIFICATIONS},
                request.requestedPermissions);
        assertEquals("Still missing: android.permission.SEND_SMS, android.permission.POST_NOTIFICATIONS."
                + " Assistants get a permission_denied reply until you allow it.", status(activity));

        // The user allows them.
        shadowOf(app).grantPermissions(ALL);
        activity.onRequestPermissionsResult(request.requestCode, request.requestedPermissions,
                new int[] {PackageManager.PERMISSION_GRANTED, PackageManager.PERMISSION_GRANTED});
        assertEquals("All permissions are granted. Assistants can now use this app.", status(activity));
    }

    @Test
    public void everythingGranted_asksNothing() {
        shadowOf(app).grantPermissions(ALL);
        MainActivity activity = Robolectric.buildActivity(MainActivity.class).setup().get();

        assertNull(shadowOf(activity).getLastRequestedPermission());
        assertEquals("All permissions are granted. Assistants can now use this app.", status(activity));
    }

    @Test
    public void button_asksAgainForWhatIsStillMissing() {
        MainActivity activity = Robolectric.buildActivity(MainActivity.class).setup().get();
        assertArrayEquals(ALL, shadowOf(activity).getLastRequestedPermission().requestedPermissions);

        shadowOf(app).grantPermissions(Manifest.permission.READ_PHONE_STATE); // allowed in Settings
        activity.findViewById(R.id.grant_permissions).performClick();
        assertArrayEquals(new String[] {Manifest.permission.SEND_SMS, Manifest.permission.POST_NOTIFICATIONS},
                shadowOf(activity).getLastRequestedPermission().requestedPermissions);
    }

    private static final String ADB_REQUEST = "{\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":"
            + "{\"id\":\"adb-1\",\"capability\":{\"id\":\"get_sms_subscriptions\",\"args\":{}}}}}";

    @Test
    public void developerSwitch_releaseBuild_letsRequestsWithoutACallbackRun_andIsRemembered() {
        shadowOf(app).grantPermissions(ALL);
        MainActivity activity = Robolectric.buildActivity(MainActivity.class).setup().get();
        Switch developer = activity.findViewById(R.id.allow_no_callback);
        assertFalse(developer.isChecked());
        assertTrue(developer.isEnabled());
        assertEquals("Off, requests sent with adb shell am, which have no callback to answer, are refused."
                + " On, they run without asking you, and their replies go to logcat, where adb reads them."
                + " Android cannot tell adb from an app, so any app could then send SMS this way: turn it on only for testing.",
                ((TextView) activity.findViewById(R.id.allow_no_callback_note)).getText().toString());
        ToolApp tool = ToolApp.from(app);
        assertEquals("permission_denied", tool.bridge().handle(ADB_REQUEST, "").errorCode());

        developer.performClick();
        assertTrue(developer.isChecked());
        assertTrue(app.getSharedPreferences("settings", Context.MODE_PRIVATE).getBoolean("allow_no_callback", false));
        assertTrue(tool.bridge().handle(ADB_REQUEST, "").success());

        // A new screen shows it on; off again refuses again.
        Switch again = Robolectric.buildActivity(MainActivity.class).setup().get().findViewById(R.id.allow_no_callback);
        assertTrue(again.isChecked());
        again.performClick();
        assertEquals("permission_denied", tool.bridge().handle(ADB_REQUEST, "").errorCode());
    }

    @Test
    public void developerSwitch_debuggableBuild_isOnAndFixed() {
        shadowOf(app).grantPermissions(ALL);
        app.getApplicationInfo().flags |= ApplicationInfo.FLAG_DEBUGGABLE;
        MainActivity activity = Robolectric.buildActivity(MainActivity.class).setup().get();
        Switch developer = activity.findViewById(R.id.allow_no_callback);
        assertTrue(developer.isChecked());
        assertFalse(developer.isEnabled());
        assertEquals("This is a debuggable build: it accepts them anyway, from adb or any app, and answers them in logcat.",
                ((TextView) activity.findViewById(R.id.allow_no_callback_note)).getText().toString());
        assertTrue(ToolApp.from(app).bridge().handle(ADB_REQUEST, "").success());
    }
}

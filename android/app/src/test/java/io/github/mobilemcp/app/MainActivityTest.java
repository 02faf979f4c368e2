package io.github.mobilemcp.app;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.app.AppOpsManager;
import android.app.Application;
import android.content.Intent;
import android.content.pm.ApplicationInfo;
import android.content.pm.PackageManager;
import android.os.Process;
import android.provider.Settings;
import android.view.View;
import android.widget.Switch;
import android.widget.TextView;
import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.sdk.ToolSettings;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.SettingsScreen;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;
import org.robolectric.android.controller.ActivityController;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowActivity;

/**
 * The launcher screen asks for what is missing, and says what still is; it shows the SDK's
 * developer switch, and keeps the tool service bound while it is shown.
 */
@RunWith(McpTestRunner.class) // not for Go: one runner keeps every test class in one sandbox
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

    /** The SDK's settings as MainActivity shows them: a new MainActivity, created, started and resumed. */
    private static SettingsScreen mainScreen() {
        return SettingsScreen.of(Robolectric.buildActivity(MainActivity.class).setup().get());
    }

    /** The started tool's engine: a ToolService is created first, as for any request. */
    private Bridge startedEngine() {
        Robolectric.buildService(ToolService.class).create();
        return EngineAccess.bridge(app);
    }

    @Test
    public void developerSwitch_releaseBuild_letsRequestsWithoutACallbackRun_andIsRemembered() {
        shadowOf(app).grantPermissions(ALL);
        SettingsScreen screen = mainScreen();
        Switch developer = screen.developerSwitch();
        assertFalse(developer.isChecked());
        assertTrue(developer.isEnabled());
        assertTrue(screen.shows("Off, requests sent with adb shell am, which have no callback to answer, are refused."
                + " On, they run without asking you, and their replies go to logcat, where adb reads them."
                + " Android cannot tell adb from an app, so any app could then use this app's actions this way: turn it on only for testing."));
        Bridge engine = startedEngine();
        assertEquals("permission_denied", String.valueOf(DirectCall.handle(engine, ADB_REQUEST, "").errorCode()));

        developer.performClick();
        assertFalse("it asks first", ToolSettings.get(app).isDeveloperSwitchOn());
        ((android.app.AlertDialog) org.robolectric.shadows.ShadowDialog.getLatestDialog())
                .getButton(android.app.AlertDialog.BUTTON_POSITIVE).performClick();
        org.robolectric.shadows.ShadowLooper.idleMainLooper();
        assertTrue(developer.isChecked());
        assertTrue(ToolSettings.get(app).isDeveloperSwitchOn());
        assertTrue(DirectCall.handle(engine, ADB_REQUEST, "").isSuccess());

        // A new screen shows it on; off again refuses again.
        Switch again = mainScreen().developerSwitch();
        assertTrue(again.isChecked());
        again.performClick();
        assertEquals("permission_denied", String.valueOf(DirectCall.handle(engine, ADB_REQUEST, "").errorCode()));
    }

    @Test
    public void developerSwitch_debuggableBuild_isOnAndFixed() {
        shadowOf(app).grantPermissions(ALL);
        app.getApplicationInfo().flags |= ApplicationInfo.FLAG_DEBUGGABLE;
        SettingsScreen screen = mainScreen();
        Switch developer = screen.developerSwitch();
        assertTrue(developer.isChecked());
        assertFalse(developer.isEnabled());
        assertTrue(screen.shows("This is a debuggable build: it accepts them anyway, from adb or any app, and answers them in logcat."));
        assertTrue(DirectCall.handle(startedEngine(), ADB_REQUEST, "").isSuccess());
    }

    @Test
    public void bindsTheToolServiceWhileShown() {
        ActivityController<MainActivity> controller = Robolectric.buildActivity(MainActivity.class).setup();
        Intent bound = shadowOf(app).getNextStartedService(); // Robolectric records a binding as a start
        assertEquals(ToolService.class.getName(), bound.getComponent().getClassName());
        assertEquals(1, shadowOf(app).getBoundServiceConnections().size());

        controller.stop();
        assertEquals(0, shadowOf(app).getBoundServiceConnections().size());
        assertEquals(1, shadowOf(app).getUnboundServiceConnections().size());
    }

    /**
     * Android 13+ restricted settings (extended to the SMS and phone permissions in 15): for an
     * app installed from a file the request is denied without a dialog until the user allows
     * restricted settings. The screen says so, and opens the app's info screen where that is done.
     */
    @Test
    @Config(minSdk = 33) // restricted settings exist from Android 13
    public void restrictedSettings_explainWhatToDo_andOpenAppInfo() {
        shadowOf(app.getSystemService(AppOpsManager.class)).setMode(RestrictedSettings.OP, Process.myUid(),
                app.getPackageName(), AppOpsManager.MODE_ERRORED);
        MainActivity activity = Robolectric.buildActivity(MainActivity.class).setup().get();

        TextView restricted = activity.findViewById(R.id.restricted_settings);
        assertEquals(View.VISIBLE, restricted.getVisibility());
        assertEquals("Android blocks the SMS and phone permissions of apps installed from a file until you allow"
                + " restricted settings. Open App info, tap ⋮ (top right), choose Allow restricted settings and"
                + " confirm. Then come back here and tap Allow.", restricted.getText().toString());
        activity.findViewById(R.id.open_app_info).performClick();
        Intent appInfo = shadowOf(activity).getNextStartedActivity();
        assertEquals(Settings.ACTION_APPLICATION_DETAILS_SETTINGS, appInfo.getAction());
        assertEquals("package:io.github.mobilemcp.app", appInfo.getData().toString());

        // The user allowed restricted settings, then the permissions: the explanation goes.
        shadowOf(app.getSystemService(AppOpsManager.class)).setMode(RestrictedSettings.OP, Process.myUid(),
                app.getPackageName(), AppOpsManager.MODE_ALLOWED);
        shadowOf(app).grantPermissions(ALL);
        activity.onRequestPermissionsResult(MainActivity.REQUEST_PERMISSIONS, ALL,
                new int[] {PackageManager.PERMISSION_GRANTED, PackageManager.PERMISSION_GRANTED, PackageManager.PERMISSION_GRANTED});
        assertEquals(View.GONE, restricted.getVisibility());
        assertEquals(View.GONE, activity.findViewById(R.id.open_app_info).getVisibility());
    }

    /** Where settings are not restricted (installed from a store, or allowed), a denial is just a denial. */
    @Test
    @Config(sdk = Config.ALL_SDKS) // RestrictedSettings and wanted() branch on SDK_INT
    public void notRestricted_saysNothingAboutIt() {
        MainActivity activity = Robolectric.buildActivity(MainActivity.class).setup().get();
        assertTrue(status(activity), status(activity).startsWith("Still missing: android.permission.SEND_SMS, android.permission.READ_PHONE_STATE"));
        assertEquals(View.GONE, activity.findViewById(R.id.restricted_settings).getVisibility());
        assertEquals(View.GONE, activity.findViewById(R.id.open_app_info).getVisibility());
    }
}

package io.github.mobilemcp.app;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.robolectric.Shadows.shadowOf;

import android.Manifest;
import android.app.Application;
import android.content.pm.PackageManager;
import android.widget.TextView;

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
}

package io.github.mobilemcp.notes;

import static org.junit.Assert.assertEquals;

import android.Manifest;
import android.app.Application;
import android.content.pm.ApplicationInfo;
import android.content.pm.PackageInfo;
import android.content.pm.PackageManager;
import android.widget.TextView;

import io.github.mobilemcp.sdk.Placeholder;
import io.github.mobilemcp.sdk.testing.GoTestRunner;

import java.util.List;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;
import org.robolectric.RuntimeEnvironment;

/**
 * An app built on the sdk gets the sdk's manifest entries and resources, as Robolectric sees the
 * merged manifest and the resource APK that aapt compiled from the notes' res/ and the sdk's.
 */
@RunWith(GoTestRunner.class) // the sdk carries the Go engine; one runner for every test class
public class NotesTest {

    @Test
    public void theSdksManifestEntriesAndResourcesAreTheApps() throws Exception {
        Application app = RuntimeEnvironment.getApplication();
        PackageManager pm = app.getPackageManager();

        // The identity and SDK levels, from gradle.properties; the permissions, all the sdk's.
        PackageInfo info = pm.getPackageInfo("io.github.mobilemcp.notes", PackageManager.GET_PERMISSIONS);
        assertEquals(24, info.applicationInfo.minSdkVersion);
        assertEquals(34, info.applicationInfo.targetSdkVersion);
        assertEquals(List.of(
                Manifest.permission.FOREGROUND_SERVICE,
                Manifest.permission.FOREGROUND_SERVICE_SPECIAL_USE,
                Manifest.permission.POST_NOTIFICATIONS), List.of(info.requestedPermissions));

        // The sdk's <application> child, whose @string names an sdk resource in the notes' table.
        ApplicationInfo appInfo = pm.getApplicationInfo("io.github.mobilemcp.notes", PackageManager.GET_META_DATA);
        assertEquals("mobilemcp SDK", appInfo.metaData.getString("io.github.mobilemcp.sdk.name"));

        // sdk code reads its resource through the sdk's R, which on the notes' classpath is the one
        // aapt wrote for the notes, with the notes' id. The sdk's own build gave the string another
        // id (the notes' layout has it here), which its classes would use had javac inlined it.
        assertEquals(R.string.mobilemcp_sdk_name, io.github.mobilemcp.sdk.R.string.mobilemcp_sdk_name);
        assertEquals("mobilemcp SDK", Placeholder.sdkName(app));

        // The notes' own resources and code, with the sdk's.
        NotesActivity activity = Robolectric.buildActivity(NotesActivity.class).setup().get();
        TextView builtOn = activity.findViewById(R.id.built_on);
        assertEquals("A sample tool built on mobilemcp SDK", builtOn.getText().toString());
    }
}

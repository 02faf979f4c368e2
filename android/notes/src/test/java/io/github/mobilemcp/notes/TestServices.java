package io.github.mobilemcp.notes;

import static org.robolectric.Shadows.shadowOf;

import android.app.Application;
import android.content.pm.ServiceInfo;
import android.os.Bundle;

import io.github.mobilemcp.sdk.McpToolService;

import org.robolectric.RuntimeEnvironment;

/** Test services that the notes manifest does not declare, declared as it would. */
final class TestServices {
    private TestServices() {}

    /** Declares service as the notes manifest declares NotesToolService, with descriptor as its capabilities. */
    static void declare(Class<? extends McpToolService> service, int descriptor) {
        Application app = RuntimeEnvironment.getApplication();
        ServiceInfo info = new ServiceInfo();
        info.packageName = app.getPackageName();
        info.name = service.getName();
        info.exported = true;
        info.applicationInfo = app.getApplicationInfo();
        info.metaData = new Bundle();
        info.metaData.putString("mobile.mcp.tool.name", "Notes");
        info.metaData.putString("mobile.mcp.tool.description", "Test notes");
        info.metaData.putInt("mobile.mcp.tool.capabilities", descriptor);
        shadowOf(app.getPackageManager()).addOrUpdateService(info);
    }

}

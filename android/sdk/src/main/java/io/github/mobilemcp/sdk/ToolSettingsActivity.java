package io.github.mobilemcp.sdk;

import android.app.Activity;
import android.os.Bundle;
import android.widget.ScrollView;

import org.jspecify.annotations.Nullable;

/**
 * A ready screen for the tool's settings ({@link ToolSettingsView}): the apps that asked to use it,
 * with Allow, Deny and Revoke, and the developer switch. The consent notification opens it. The
 * SDK's manifest declares it, not exported; to make it your app's launcher screen, add an
 * {@code <activity-alias>} with the launcher intent filter whose {@code targetActivity} it is.
 */
public class ToolSettingsActivity extends Activity {
    private ToolSettingsView settings;

    @Override
    protected void onCreate(@Nullable Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setTitle(R.string.mobilemcp_settings_title);
        settings = new ToolSettingsView(this);
        ScrollView scroll = new ScrollView(this);
        scroll.addView(settings);
        setContentView(scroll);
    }

    @Override
    protected void onResume() {
        super.onResume();
        settings.refresh(); // decisions change from the notification too
    }

    /** The settings view, once the activity is created; for tests. */
    public ToolSettingsView getSettingsView() {
        return settings;
    }
}

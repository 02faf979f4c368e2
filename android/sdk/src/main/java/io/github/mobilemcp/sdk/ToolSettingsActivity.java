package io.github.mobilemcp.sdk;

import android.app.Activity;
import android.os.Bundle;
import android.view.MotionEvent;
import android.widget.ScrollView;

import org.jspecify.annotations.Nullable;

/**
 * A ready screen for the tool's settings ({@link ToolSettingsView}): the apps that asked to use it,
 * with Allow, Deny and Revoke, and the developer switch. The consent notification opens it. From
 * API 31 it hides other apps' overlays while it shows. The
 * SDK's manifest declares it, not exported; to make it your app's launcher screen, add an
 * {@code <activity-alias>} with the launcher intent filter whose {@code targetActivity} it is.
 */
public final class ToolSettingsActivity extends Activity {
    private ToolSettingsView settings;

    @Override
    protected void onCreate(@Nullable Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        TouchGuard.hideOverlays(this);
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

    @Override
    public boolean dispatchTouchEvent(MotionEvent event) {
        TouchGuard.screenTouched(this, event);
        return super.dispatchTouchEvent(event);
    }
}

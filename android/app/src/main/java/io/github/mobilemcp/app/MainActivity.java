package io.github.mobilemcp.app;

import android.Manifest;
import android.app.Activity;
import android.content.ClipData;
import android.content.ClipDescription;
import android.content.ClipboardManager;
import android.content.ComponentName;
import android.content.Intent;
import android.content.ServiceConnection;
import android.content.pm.PackageManager;
import android.net.Uri;
import android.os.Build;
import android.os.Bundle;
import android.os.IBinder;
import android.os.PersistableBundle;
import android.provider.Settings;
import android.text.TextUtils;
import android.view.MotionEvent;
import android.view.View;
import android.view.ViewGroup;
import android.view.WindowManager;
import android.widget.Button;
import android.widget.CheckBox;
import android.widget.Switch;
import android.widget.TextView;
import android.widget.Toast;

import io.github.mobilemcp.sdk.ToolSettingsView;
import io.github.mobilemcp.sdk.TouchGuard;

import java.util.ArrayList;
import java.util.List;

/**
 * The app's only screen:
 * <ul>
 *   <li>the runtime permissions the tool service needs, and which are still missing (the service
 *       never asks itself; it has no UI, so without them it answers permission_denied and names
 *       this app); when Android blocks the SMS and phone permissions of an app installed from a
 *       file ({@link RestrictedSettings}), how to allow them, with a button to the app's info;
 *   <li>the SDK's {@link ToolSettingsView}: the apps that asked to use the tool, with Allow and Deny
 *       (the same question as the notification, for when notifications are off) or Revoke, and the
 *       developer switch (accept requests without a callback, from adb, in a release build);
 *   <li>the MCP server switch: off by default; on, {@link McpServerService} serves the tools on the
 *       phone's loopback (reached over USB with adb forward), or on the local network too when the
 *       user ticks that, with a fresh token shown here ({@link McpHttp}), in the foreground, with a
 *       notification that can stop it;
 *   <li>the other apps' Mobile-MCP tools, each shared over MCP only once the user turns it on
 *       ({@link SharedToolsView}, {@link Gateway}).
 * </ul>
 * While it is shown it binds to {@link ToolService}, so that the tool has started in this process
 * (the settings view reads the tool's decisions). The server starts and stops in McpServerService,
 * on McpHttp's thread; McpHttp's listener updates the views back on the main thread.
 */
public class MainActivity extends Activity {
    /** The request code of the permission request. */
    static final int REQUEST_PERMISSIONS = 1;

    /** The binding that starts the tool; it needs nothing from the service itself. */
    private final ServiceConnection tool = new ServiceConnection() {
        @Override
        public void onServiceConnected(ComponentName name, IBinder service) {}

        @Override
        public void onServiceDisconnected(ComponentName name) {}
    };

    /** Whether the binding to ToolService was made, and so must be undone. */
    private boolean bound;
    /** Updates the screen when the MCP server changes, while the screen is started. */
    private final Runnable httpChanged = this::httpChanged;
    private McpHttp mcp;
    private TextView status;
    private TextView restricted;
    private Button openAppInfo;
    private ToolSettingsView settings;
    private SharedToolsView shared;
    private CheckBox lan;
    private Switch http;
    private TextView httpStatus;
    private TextView httpToken;
    private Button copyToken;
    /** Set while the code itself changes the switch, so its listener ignores the change. */
    private boolean showing;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        // The screen shows the MCP token: keep it out of screenshots, screen recordings and the
        // recents thumbnail.
        getWindow().setFlags(WindowManager.LayoutParams.FLAG_SECURE, WindowManager.LayoutParams.FLAG_SECURE);
        // Its Allow buttons and the server's switches grant access: no overlay may lie over them.
        TouchGuard.hideOverlays(this);
        setContentView(R.layout.activity_main);
        mcp = McpHttp.of(this);
        status = findViewById(R.id.permission_status);
        restricted = findViewById(R.id.restricted_settings);
        openAppInfo = findViewById(R.id.open_app_info);
        openAppInfo.setOnClickListener(v -> openAppInfo());
        settings = new ToolSettingsView(this);
        ((ViewGroup) findViewById(R.id.tool_settings)).addView(settings);
        shared = new SharedToolsView(this);
        ((ViewGroup) findViewById(R.id.shared_tools)).addView(shared);
        lan = findViewById(R.id.mcp_lan);
        lan.setChecked(mcp.lan());
        // The MCP server's switches grant access to the phone: only the user's own taps count.
        TouchGuard.protect(lan);
        lan.setOnCheckedChangeListener((v, on) -> mcp.setLan(on));
        http = findViewById(R.id.mcp_http);
        httpStatus = findViewById(R.id.mcp_http_status);
        httpToken = findViewById(R.id.mcp_http_token);
        copyToken = findViewById(R.id.copy_token);
        TouchGuard.protect(http);

        findViewById(R.id.grant_permissions).setOnClickListener(v -> requestMissing());
        http.setOnCheckedChangeListener((v, on) -> {
            if (!showing) {
                switchHttp(on);
            }
        });
        copyToken.setOnClickListener(v -> copyToken());
        if (savedInstanceState == null) { // not again after a rotation
            requestMissing();
        }
    }

    @Override
    protected void onStart() {
        super.onStart();
        mcp.listen(httpChanged);
        bound = bindService(new Intent(this, ToolService.class), tool, BIND_AUTO_CREATE);
    }

    @Override
    protected void onResume() {
        super.onResume();
        // Any of these may have changed meanwhile: Settings, the notification, another screen.
        showStatus();
        settings.refresh();
        shared.refresh();
        showHttp();
    }

    @Override
    protected void onStop() {
        mcp.unlisten(httpChanged);
        if (bound) {
            unbindService(tool); // it throws for a connection that was never bound
            bound = false;
        }
        super.onStop();
    }

    @Override
    public void onRequestPermissionsResult(int requestCode, String[] permissions, int[] grantResults) {
        if (requestCode == REQUEST_PERMISSIONS) {
            showStatus();
        }
    }

    /** The runtime permissions the app uses, for this API level. */
    static List<String> wanted() {
        List<String> wanted = new ArrayList<>();
        wanted.add(Manifest.permission.SEND_SMS);
        wanted.add(Manifest.permission.READ_PHONE_STATE);
        if (Build.VERSION.SDK_INT >= 33) {
            // The foreground service's notification, and the consent question.
            wanted.add(Manifest.permission.POST_NOTIFICATIONS);
        }
        return wanted;
    }

    private List<String> missing() {
        List<String> missing = new ArrayList<>();
        for (String permission : wanted()) {
            if (checkSelfPermission(permission) != PackageManager.PERMISSION_GRANTED) {
                missing.add(permission);
            }
        }
        return missing;
    }

    private void requestMissing() {
        List<String> missing = missing();
        if (!missing.isEmpty()) {
            requestPermissions(missing.toArray(new String[0]), REQUEST_PERMISSIONS);
        }
    }

    private void showStatus() {
        List<String> missing = missing();
        status.setText(missing.isEmpty()
                ? getString(R.string.permissions_granted)
                : getString(R.string.permissions_missing, TextUtils.join(", ", missing)));
        // Android 13+ blocks these two for an app installed from a file until the user allows
        // restricted settings; the request is then denied without a dialog. Say what to do.
        boolean blocked = (missing.contains(Manifest.permission.SEND_SMS) || missing.contains(Manifest.permission.READ_PHONE_STATE))
                && RestrictedSettings.restricted(this);
        int visibility = blocked ? View.VISIBLE : View.GONE;
        restricted.setVisibility(visibility);
        openAppInfo.setVisibility(visibility);
    }

    /** The app's info screen, whose ⋮ menu has "Allow restricted settings". */
    private void openAppInfo() {
        startActivity(new Intent(Settings.ACTION_APPLICATION_DETAILS_SETTINGS,
                Uri.fromParts("package", getPackageName(), null)));
    }

    // The MCP server.

    /**
     * On, starts {@link McpServerService}, which starts the server; off, stops both. The switch
     * stays disabled until McpHttp says the server changed ({@link #httpChanged}).
     */
    private void switchHttp(boolean on) {
        http.setEnabled(false);
        httpStatus.setText(on ? getString(R.string.mcp_http_starting) : "");
        if (on) {
            McpServerService.start(this);
        } else {
            McpServerService.stop(this);
        }
    }

    /** The server started, stopped or failed to start (McpHttp's listener, on the main thread). */
    private void httpChanged() {
        http.setEnabled(true);
        showHttp();
        String failed = mcp.error();
        if (failed != null && mcp.token() == null) {
            httpStatus.setText(getString(R.string.mcp_http_failed, failed));
        }
    }

    /** The switch, the address and the token, as the server is now. */
    private void showHttp() {
        String token = mcp.token();
        setSilently(http, token != null);
        lan.setEnabled(token == null); // the choice applies when the server starts
        if (token == null) {
            httpStatus.setText(R.string.mcp_http_off);
            httpToken.setText("");
            copyToken.setVisibility(View.GONE);
            return;
        }
        List<String> urls = mcp.urls();
        httpStatus.setText(getString(R.string.mcp_http_on, urls.isEmpty()
                ? getString(R.string.mcp_http_no_network, mcp.port())
                : TextUtils.join("\n", urls)));
        httpToken.setText(token);
        copyToken.setVisibility(View.VISIBLE);
    }

    private void copyToken() {
        String token = mcp.token();
        if (token == null) {
            return;
        }
        ClipData clip = ClipData.newPlainText("MCP token", token);
        // Sensitive: Android 13+ does not show it in the copy preview, and keyboards keep it out of
        // their clipboard history. EXTRA_IS_SENSITIVE is from API 33, but the compiler inlines its
        // value, and keyboards on older versions read the same key.
        PersistableBundle extras = new PersistableBundle();
        extras.putBoolean(ClipDescription.EXTRA_IS_SENSITIVE, true);
        clip.getDescription().setExtras(extras);
        getSystemService(ClipboardManager.class).setPrimaryClip(clip);
        Toast.makeText(this, R.string.token_copied, Toast.LENGTH_SHORT).show();
    }

    private void setSilently(Switch view, boolean checked) {
        showing = true;
        view.setChecked(checked);
        showing = false;
    }

    @Override
    public boolean dispatchTouchEvent(MotionEvent event) {
        // A touch through an overlay anywhere on the screen, not only on a guarded control, makes
        // the guarded controls ignore the next taps.
        TouchGuard.screenTouched(this, event);
        return super.dispatchTouchEvent(event);
    }
}

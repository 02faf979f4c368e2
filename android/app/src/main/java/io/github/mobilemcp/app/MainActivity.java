package io.github.mobilemcp.app;

import android.Manifest;
import android.app.Activity;
import android.content.ClipData;
import android.content.ClipboardManager;
import android.content.pm.PackageManager;
import android.os.Build;
import android.os.Bundle;
import android.util.Log;
import android.view.View;
import android.widget.Button;
import android.widget.LinearLayout;
import android.widget.Switch;
import android.widget.TextView;
import android.widget.Toast;

import io.github.mobilemcp.intentbridge.Intentbridge;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The app's only screen:
 * <ul>
 *   <li>the runtime permissions the tool service needs, and which are still missing (the service
 *       never asks itself; it has no UI, so without them it answers permission_denied and names
 *       this app);
 *   <li>the apps that asked to send SMS and wait for an answer, with Allow and Deny (the same
 *       question as the notification, for when notifications are off), and the apps the user
 *       allowed or denied, each with Revoke;
 *   <li>the MCP server switch: off by default; on, it serves the tools on the local network with a
 *       fresh token shown here ({@link McpHttp});
 *   <li>the developer switch: accept requests without a callback (adb) in a release build.
 * </ul>
 * Writing a decision and starting or stopping the server run on the app's background thread; the
 * views are updated back on the main thread.
 */
public class MainActivity extends Activity {
    /** The request code of the permission request. */
    static final int REQUEST_PERMISSIONS = 1;

    private ToolApp app;
    private TextView status;
    private LinearLayout callers;
    private TextView callersEmpty;
    private Switch http;
    private TextView httpStatus;
    private TextView httpToken;
    private Button copyToken;
    private Switch noCallback;
    /** Set while the code itself changes a switch, so its listener ignores the change. */
    private boolean showing;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.activity_main);
        app = ToolApp.from(this);
        status = findViewById(R.id.permission_status);
        callers = findViewById(R.id.callers);
        callersEmpty = findViewById(R.id.callers_empty);
        http = findViewById(R.id.mcp_http);
        httpStatus = findViewById(R.id.mcp_http_status);
        httpToken = findViewById(R.id.mcp_http_token);
        copyToken = findViewById(R.id.copy_token);
        noCallback = findViewById(R.id.allow_no_callback);

        findViewById(R.id.grant_permissions).setOnClickListener(v -> requestMissing());
        http.setOnCheckedChangeListener((v, on) -> {
            if (!showing) {
                switchHttp(on);
            }
        });
        copyToken.setOnClickListener(v -> copyToken());
        noCallback.setOnCheckedChangeListener((v, on) -> {
            if (!showing) {
                app.setDeveloperSwitch(on);
            }
        });
        if (savedInstanceState == null) { // not again after a rotation
            requestMissing();
        }
    }

    @Override
    protected void onResume() {
        super.onResume();
        // Any of these may have changed meanwhile: Settings, the notification, another screen.
        showStatus();
        showCallers();
        showHttp();
        showDeveloperSwitch();
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
                : getString(R.string.permissions_missing, String.join(", ", missing)));
    }

    // The calling apps.

    /**
     * One row per app: first those waiting for an answer (Allow, Deny), then Go's decisions (what
     * was decided, since when, and Revoke). Each row's tag is the package.
     */
    void showCallers() {
        callers.removeAllViews();
        List<String> decided = new ArrayList<>();
        List<View> decisions = new ArrayList<>();
        try {
            JSONArray list = new JSONArray(app.bridge().callersJSON());
            for (int i = 0; i < list.length(); i++) {
                JSONObject grant = list.getJSONObject(i);
                decided.add(grant.getString("package"));
                decisions.add(decisionRow(grant));
            }
        } catch (JSONException e) {
            Log.e(ToolService.LOG_TAG, "unreadable list of decisions", e);
        }
        for (String pkg : app.asking()) {
            if (!decided.contains(pkg)) {
                LinearLayout row = row(pkg, getString(R.string.caller_asking, ConsentPrompt.label(this, pkg)));
                addButton(row, R.string.consent_allow, () -> decide(pkg, true));
                addButton(row, R.string.consent_deny, () -> decide(pkg, false));
                callers.addView(row);
            }
        }
        for (View row : decisions) {
            callers.addView(row);
        }
        callersEmpty.setVisibility(callers.getChildCount() == 0 ? View.VISIBLE : View.GONE);
    }

    private View decisionRow(JSONObject grant) throws JSONException {
        String pkg = grant.getString("package");
        String since = grant.getString("at").substring(0, 10); // the date of an RFC 3339 time
        int text = Intentbridge.DecisionAllowed.equals(grant.getString("decision"))
                ? R.string.caller_allowed : R.string.caller_denied;
        LinearLayout row = row(pkg, getString(text, ConsentPrompt.label(this, pkg), since));
        addButton(row, R.string.caller_revoke, () -> revoke(pkg));
        return row;
    }

    /** A row about pkg (its tag) with text; the buttons follow it. */
    private LinearLayout row(String pkg, String text) {
        LinearLayout row = new LinearLayout(this);
        row.setOrientation(LinearLayout.HORIZONTAL);
        row.setTag(pkg);
        TextView label = new TextView(this);
        label.setText(text);
        row.addView(label, new LinearLayout.LayoutParams(0, LinearLayout.LayoutParams.WRAP_CONTENT, 1));
        return row;
    }

    private void addButton(LinearLayout row, int label, Runnable action) {
        Button button = new Button(this);
        button.setText(label);
        button.setOnClickListener(v -> action.run());
        row.addView(button);
    }

    /** Answers the question about pkg, as the notification's buttons do. */
    private void decide(String pkg, boolean allow) {
        inBackground("could not record the decision about " + pkg, () -> app.decide(pkg, allow));
    }

    /** Forgets the decision about pkg: its next send asks the user again. */
    private void revoke(String pkg) {
        inBackground("could not revoke the decision about " + pkg, () -> app.bridge().forgetCaller(pkg));
    }

    /** A bridge call that writes the decisions, off the main thread; then the rows again. */
    private void inBackground(String failure, BridgeCall work) {
        app.background().execute(() -> {
            try {
                work.run();
            } catch (Exception e) {
                Log.e(ToolService.LOG_TAG, failure, e);
            }
            runOnUiThread(() -> {
                if (!isDestroyed()) {
                    showCallers();
                }
            });
        });
    }

    /** A call into the bridge, which may throw (Go errors arrive as exceptions). */
    private interface BridgeCall {
        void run() throws Exception;
    }

    // The MCP server.

    private void switchHttp(boolean on) {
        http.setEnabled(false);
        httpStatus.setText(on ? getString(R.string.mcp_http_starting) : "");
        app.background().execute(() -> {
            String error = null;
            if (on) {
                try {
                    app.http().start();
                } catch (Exception e) {
                    error = e.getMessage();
                }
            } else {
                app.http().stop();
            }
            String failed = error;
            runOnUiThread(() -> {
                if (isDestroyed()) {
                    return;
                }
                http.setEnabled(true);
                showHttp();
                if (failed != null) {
                    httpStatus.setText(getString(R.string.mcp_http_failed, failed));
                }
            });
        });
    }

    /** The switch, the address and the token, as the server is now. */
    private void showHttp() {
        String token = app.http().token();
        setSilently(http, token != null);
        if (token == null) {
            httpStatus.setText(R.string.mcp_http_off);
            httpToken.setText("");
            copyToken.setVisibility(View.GONE);
            return;
        }
        List<String> urls = app.http().urls();
        httpStatus.setText(getString(R.string.mcp_http_on, urls.isEmpty()
                ? getString(R.string.mcp_http_no_network, app.http().port())
                : String.join("\n", urls)));
        httpToken.setText(token);
        copyToken.setVisibility(View.VISIBLE);
    }

    private void copyToken() {
        String token = app.http().token();
        if (token == null) {
            return;
        }
        getSystemService(ClipboardManager.class).setPrimaryClip(ClipData.newPlainText("MCP token", token));
        Toast.makeText(this, R.string.token_copied, Toast.LENGTH_SHORT).show();
    }

    // The developer switch.

    private void showDeveloperSwitch() {
        boolean debuggable = app.isDebuggable();
        setSilently(noCallback, debuggable || app.developerSwitch());
        noCallback.setEnabled(!debuggable);
        ((TextView) findViewById(R.id.allow_no_callback_note)).setText(debuggable
                ? R.string.allow_no_callback_debuggable : R.string.allow_no_callback_release);
    }

    private void setSilently(Switch view, boolean checked) {
        showing = true;
        view.setChecked(checked);
        showing = false;
    }
}

package io.github.mobilemcp.app;

import android.Manifest;
import android.app.Activity;
import android.content.pm.PackageManager;
import android.os.Build;
import android.os.Bundle;
import android.widget.TextView;

import java.util.ArrayList;
import java.util.List;

/**
 * The app's only screen: it asks for the runtime permissions the tool service needs and shows
 * which are still missing. The service never asks itself; it has no UI, so without them it answers
 * permission_denied and names this app.
 */
public class MainActivity extends Activity {
    /** The request code of the permission request. */
    static final int REQUEST_PERMISSIONS = 1;

    private TextView status;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.activity_main);
        status = findViewById(R.id.permission_status);
        findViewById(R.id.grant_permissions).setOnClickListener(v -> requestMissing());
        if (savedInstanceState == null) { // not again after a rotation
            requestMissing();
        }
    }

    @Override
    protected void onResume() {
        super.onResume();
        showStatus(); // the user may have changed them in Settings meanwhile
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
            // The foreground service's notification; the service runs without it.
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
}

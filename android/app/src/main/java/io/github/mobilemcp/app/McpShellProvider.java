package io.github.mobilemcp.app;

import android.content.ContentProvider;
import android.content.ContentValues;
import android.content.pm.PackageManager;
import android.database.Cursor;
import android.net.Uri;
import android.os.Binder;
import android.os.Bundle;

import org.json.JSONException;
import org.json.JSONObject;

/**
 * Tells adb's shell about the MCP server ({@link McpHttp}), its token included, so that
 * {@code mobilemcp adb stdio} on the computer the phone authorised for USB debugging reaches the
 * server with no token to copy:
 *
 * <pre>adb shell content call --uri content://io.github.mobilemcp.app.mobilemcp.mcp --method server</pre>
 *
 * returns {@code Result: Bundle[{mobile-mcp-server={"on":true,"port":9531,"token":"…"}}]}, or
 * {@code {"on":false,"port":9531}} (with {@code "error"} when the last start failed) while the
 * server is off. It never starts the server: the user turns it on in the app.
 *
 * <p>The same protection as the Tool SDK's shell-only provider: the manifest requires
 * {@code android.permission.DUMP} (signature|privileged|development; AOSP's Shell package holds
 * it, no app can be granted it), and {@link #call} also requires the shell's uid (2000) or root's,
 * so that a privileged app holding DUMP gets nothing either. Whoever holds adb controls the phone
 * already: the token gives them nothing more (docs/security.md).
 */
public final class McpShellProvider extends ContentProvider {
    /** The one method: the server's state. */
    static final String METHOD_SERVER = "server";
    /** The key of the answer in the result Bundle. */
    static final String EXTRA_SERVER = "mobile-mcp-server";
    /** adb shell's uid (android.os.Process.SHELL_UID, hidden in the SDK) and root's. */
    static final int SHELL_UID = 2000;
    static final int ROOT_UID = 0;

    @Override
    public boolean onCreate() {
        return true;
    }

    @Override
    public Bundle call(String method, String arg, Bundle extras) {
        int uid = Binder.getCallingUid();
        boolean shell = (uid == SHELL_UID || uid == ROOT_UID)
                && getContext().checkCallingPermission(android.Manifest.permission.DUMP) == PackageManager.PERMISSION_GRANTED;
        if (!shell) {
            throw new SecurityException("the MCP server's token is for adb's shell only (uid 2000, holding"
                    + " android.permission.DUMP), not uid " + uid);
        }
        if (!METHOD_SERVER.equals(method)) {
            throw new IllegalArgumentException("call method " + METHOD_SERVER + ", not " + method);
        }
        McpHttp http = McpHttp.of(getContext());
        JSONObject state = new JSONObject();
        try {
            String token = http.token();
            state.put("on", token != null);
            state.put("port", Integer.parseInt(http.port()));
            if (token != null) {
                state.put("token", token);
            } else if (http.error() != null) {
                state.put("error", http.error());
            }
        } catch (JSONException e) {
            throw new IllegalStateException(e); // only for a non-finite number, which none is
        }
        Bundle result = new Bundle();
        result.putString(EXTRA_SERVER, state.toString());
        return result;
    }

    // Not a data provider: the rest of ContentProvider has nothing to give.

    @Override
    public Cursor query(Uri uri, String[] projection, String selection, String[] selectionArgs, String sortOrder) {
        return null;
    }

    @Override
    public String getType(Uri uri) {
        return null;
    }

    @Override
    public Uri insert(Uri uri, ContentValues values) {
        return null;
    }

    @Override
    public int delete(Uri uri, String selection, String[] selectionArgs) {
        return 0;
    }

    @Override
    public int update(Uri uri, ContentValues values, String selection, String[] selectionArgs) {
        return 0;
    }
}

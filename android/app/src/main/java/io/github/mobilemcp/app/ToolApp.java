package io.github.mobilemcp.app;

import android.app.Application;
import android.content.Context;
import android.content.SharedPreferences;
import android.content.pm.ApplicationInfo;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The app's process: it owns the one Go {@link Bridge} that every component shares. ToolService
 * runs requests on it, MainActivity and the consent notification change the user's decisions on it,
 * and the MCP HTTP server runs inside it. One bridge matters: the decisions and the reply store are
 * files that a second bridge would read once and then overwrite.
 *
 * <p>The bridge opens on first use and stays open until the process dies (Android never calls
 * {@link #onTerminate} on a device; the host tests do).
 */
public class ToolApp extends Application {
    /** The SharedPreferences file of the app's settings. */
    static final String PREFS = "settings";
    /** The developer switch: accept requests without a callback (adb) in a release build. */
    static final String PREF_ALLOW_NO_CALLBACK = "allow_no_callback";

    private AndroidPlatform platform;
    private Bridge bridge;
    private McpHttp http;
    private ExecutorService background;
    /** The calling apps refused for want of consent since the process started, still undecided. */
    private final Set<String> asking = ConcurrentHashMap.newKeySet();
    /** See {@link #setCapabilityTimeoutMillisForTests}. */
    private long capabilityTimeoutMillis;

    /** The ToolApp of context's process. */
    static ToolApp from(Context context) {
        return (ToolApp) context.getApplicationContext();
    }

    /**
     * The bridge, opened on first use with its files (replies.jsonl, consents.json) in
     * getFilesDir(). If they cannot be read it still serves, with both in memory: a retry after a
     * restart may then send again and the user is asked again, which is better than no tool at
     * all; logcat says so.
     */
    synchronized Bridge bridge() {
        if (bridge == null) {
            platform = new AndroidPlatform(this);
            bridge = openBridge(platform, getFilesDir().getPath(), capabilityTimeoutMillis);
            applyNoCallbackRule();
        }
        return bridge;
    }

    private static Bridge openBridge(AndroidPlatform platform, String dataDir, long timeoutMillis) {
        try {
            // The first use of a gobind class loads libgojni.so (go.Seq's static block).
            return Intentbridge.newBridgeWithTimeout(platform, dataDir, timeoutMillis);
        } catch (Exception e) {
            Log.e(ToolService.LOG_TAG, "cannot open the reply and consent stores in " + dataDir
                    + "; until the app stops, repeated request ids are recognised and the user's"
                    + " decisions kept in memory only", e);
        }
        try {
            return Intentbridge.newBridgeWithTimeout(platform, "", timeoutMillis);
        } catch (Exception e) {
            // Only a null platform fails here.
            throw new IllegalStateException("cannot start the Mobile-MCP engine", e);
        }
    }

    /**
     * Gives every capability a deadline of timeoutMillis instead of its own (60 s for send_sms), so
     * that a test reaches the timeout path quickly. It must be called before the bridge opens; the
     * app never calls it.
     */
    synchronized void setCapabilityTimeoutMillisForTests(long timeoutMillis) {
        if (bridge != null) {
            throw new IllegalStateException("the bridge is already open");
        }
        capabilityTimeoutMillis = timeoutMillis;
    }

    /**
     * Asks the user about callerPackage, which just got consent_required: a notification, and a row
     * in MainActivity, which stays usable when notifications are off (Android 13+ asks for them).
     */
    void ask(String callerPackage) {
        asking.add(callerPackage);
        ConsentPrompt.ask(this, callerPackage);
    }

    /** The apps waiting for a decision, sorted. */
    List<String> asking() {
        List<String> list = new ArrayList<>(asking);
        Collections.sort(list);
        return list;
    }

    /**
     * Records the user's decision about callerPackage in Go and withdraws the question. It writes a
     * file and syncs it: call it off the main thread.
     */
    void decide(String callerPackage, boolean allow) throws Exception {
        if (allow) {
            bridge().allowCaller(callerPackage);
        } else {
            bridge().denyCaller(callerPackage);
        }
        asking.remove(callerPackage);
        ConsentPrompt.dismiss(this, callerPackage);
    }

    /** The MCP server switch of MainActivity. */
    synchronized McpHttp http() {
        if (http == null) {
            http = new McpHttp(this);
        }
        return http;
    }

    /**
     * A thread for work the main thread must not do: writing the decisions (the file is synced to
     * disk) and starting or stopping the HTTP server.
     */
    synchronized ExecutorService background() {
        if (background == null) {
            background = Executors.newSingleThreadExecutor(r -> new Thread(r, "mobile-mcp-app"));
        }
        return background;
    }

    boolean isDebuggable() {
        return (getApplicationInfo().flags & ApplicationInfo.FLAG_DEBUGGABLE) != 0;
    }

    private SharedPreferences prefs() {
        return getSharedPreferences(PREFS, MODE_PRIVATE);
    }

    /** Whether the user turned on the developer switch. */
    boolean developerSwitch() {
        return prefs().getBoolean(PREF_ALLOW_NO_CALLBACK, false);
    }

    /** Saves the developer switch and applies it at once. */
    void setDeveloperSwitch(boolean on) {
        prefs().edit().putBoolean(PREF_ALLOW_NO_CALLBACK, on).apply();
        applyNoCallbackRule();
    }

    /**
     * Tells Go whether requests without a callback (adb) may run: in a debuggable build, or with the
     * developer switch on. The rule itself, and the refusal, live in Go (the access package), so
     * every transport applies the same one.
     */
    void applyNoCallbackRule() {
        bridge().setAllowNoCallback(isDebuggable() || developerSwitch());
    }

    @Override
    public synchronized void onTerminate() {
        if (http != null) {
            http.stop();
        }
        if (bridge != null) {
            try {
                bridge.close();
            } catch (Exception e) {
                Log.w(ToolService.LOG_TAG, "closing the reply store", e);
            }
            platform.close();
            bridge = null;
        }
        if (background != null) {
            background.shutdown();
        }
        super.onTerminate();
    }
}

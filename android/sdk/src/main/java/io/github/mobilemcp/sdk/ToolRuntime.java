package io.github.mobilemcp.sdk;

import android.app.Activity;
import android.content.BroadcastReceiver;
import android.content.ComponentName;
import android.content.Context;
import android.content.Intent;
import android.content.SharedPreferences;
import android.content.pm.ApplicationInfo;
import android.content.pm.PackageManager;
import android.content.pm.ServiceInfo;
import android.content.res.Resources;
import android.os.Bundle;
import android.os.SystemClock;
import android.util.Log;
import android.view.MotionEvent;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Done;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.intentbridge.ReplyTarget;
import io.github.mobilemcp.intentbridge.Tool;
import io.github.mobilemcp.sdk.internal.Components;
import io.github.mobilemcp.sdk.internal.DescriptorTree;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.internal.RequestLimits;

import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The process's one engine: the Go {@link Bridge} that the tool service, the consent notification
 * and the settings screen share. One matters: the user's decisions and the reply store are files
 * that a second bridge would read once and then overwrite.
 *
 * <p>It belongs to the Application object, so no Application subclass is needed; it opens on first
 * use and stays open while the process lives. (A test framework that makes a new Application per
 * test gets a new engine per test.)
 */
final class ToolRuntime {
    /** The SharedPreferences file of the SDK's settings. */
    static final String PREFS = "mobilemcp_settings";
    /** The developer switch: accept requests without a callback (adb) in a release build. */
    static final String PREF_ALLOW_NO_CALLBACK = "allow_no_callback";

    /**
     * The runtime of each app in the process, by package. A process holds one app, except where
     * apps sharing a user id also share a process (android:process): then each has its own
     * Application, files and decisions, and so its own runtime.
     */
    private static final Map<String, ToolRuntime> RUNTIMES = new HashMap<>();

    // The seam to the engine for the SMS app and the tests, outside the SDK's API.
    static {
        EngineAccess.provide(new EngineAccess.Provider() {
            @Override
            public Bridge bridge(Context context) {
                return get(context).bridge;
            }

            @Override
            public Tool tool(ToolHandlers handlers) {
                return handlers.engineTool();
            }

            @Override
            public void setTimeoutMillis(Context context, long millis) {
                get(context).setTimeoutOverride(millis);
            }
        });
        Components.provide(new Components.Provider() {
            @Override
            public Bundle adbCall(Context context, String method, @Nullable String arg, int uid, boolean holdsDump) {
                return AdbChannel.call(context, method, arg, uid, holdsDump);
            }

            @Override
            public void consentBroadcast(BroadcastReceiver receiver, Context context, Intent intent) {
                ConsentBroadcasts.onReceive(receiver, context, intent);
            }

            @Override
            public void packageRemoved(BroadcastReceiver receiver, Context context, Intent intent) {
                PackageRemovals.onReceive(receiver, context, intent);
            }

            @Override
            public String callerLabel(Context context, String callerPackage) {
                return ConsentPrompt.label(context, callerPackage);
            }

            @Override
            public String toolLabel(Context context) {
                return ConsentPrompt.appLabel(context);
            }

            @Override
            public void decide(Context context, String callerPackage, boolean allow) {
                ToolRuntime runtime = get(context);
                runtime.background().execute(() -> {
                    try {
                        runtime.decide(callerPackage, allow);
                    } catch (Exception e) {
                        Log.e(McpToolService.LOG_TAG, "could not record the decision about " + callerPackage, e);
                    }
                });
            }

            @Override
            public void settleAfterEveryTouch(Activity screen) {
                TouchGuard.settleAfterEveryTouch(screen);
            }

            @Override
            public void touchEnded(Activity screen, MotionEvent event) {
                TouchGuard.touchEnded(screen, event);
            }
        });
    }

    /** The runtime of context's app. */
    static synchronized ToolRuntime get(Context context) {
        Context app = context.getApplicationContext();
        ToolRuntime current = RUNTIMES.get(app.getPackageName());
        if (current == null || current.app != app) {
            if (current != null) {
                current.close(); // a test's previous Application of the same app
            }
            current = new ToolRuntime(app);
            RUNTIMES.put(app.getPackageName(), current);
        }
        return current;
    }

    final Context app;
    final Bridge bridge;
    /**
     * The process's workers, RequestLimits.MAX_CONCURRENT_CALLS threads that run the queued
     * requests of every transport. They belong to the engine, not to a service instance: a request
     * queued while Android recreates the service still runs.
     */
    private final ThreadPoolExecutor workers = new ThreadPoolExecutor(RequestLimits.MAX_CONCURRENT_CALLS,
            RequestLimits.MAX_CONCURRENT_CALLS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
            r -> new Thread(r, "mobile-mcp-worker"));
    /** The calling apps waiting over their bindings for the user's decision about them. */
    final ConsentWatch consents;
    /** The calling apps refused for want of consent since the process started, still undecided. */
    private final Set<String> asking = ConcurrentHashMap.newKeySet();
    private ExecutorService background;
    /** The tool service class that started the tool, or null. */
    private String startedBy;
    private long timeoutOverrideMillis;

    private ToolRuntime(Context app) {
        this.app = app;
        workers.allowCoreThreadTimeOut(true); // no thread lingers in an idle process
        this.bridge = openBridge(app.getFilesDir().getPath());
        this.consents = new ConsentWatch(app, bridge);
        // Decisions belong to an app, named by package and signing certificate.
        bridge.setSignerSource(new CallerSigners(app.getPackageManager()));
        applyNoCallbackRule();
    }

    /**
     * Opens the bridge with its files (replies.jsonl, consents.json) in dataDir. If they cannot be
     * read it still serves, with both in memory: a retry after a restart may then run again and
     * the user is asked again, which is better than no tool at all; logcat says so.
     */
    private static Bridge openBridge(String dataDir) {
        try {
            // The first use of a gobind class loads libmobilemcp.so (Seq's static block).
            return Intentbridge.openBridge(dataDir);
        } catch (Exception e) {
            Log.e(McpToolService.LOG_TAG, "cannot open the reply and consent stores in " + dataDir
                    + "; until the app stops, repeated request ids are recognised and the user's"
                    + " decisions kept in memory only", e);
        }
        try {
            return Intentbridge.openBridge("");
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the Mobile-MCP engine", e);
        }
    }

    /**
     * Starts the tool of service: its descriptor, found through its meta-data, and its handlers.
     * Once per process; a failure is logged, and every request is then answered with it.
     */
    synchronized void start(McpToolService service) {
        String name = service.getClass().getName();
        if (startedBy != null) {
            if (!startedBy.equals(name)) {
                Log.e(McpToolService.LOG_TAG, name + " is a second Mobile-MCP service in this app, after " + startedBy
                        + "; the Mobile-MCP spec allows one (§1.1), and this one answers with " + startedBy + "'s tool");
            }
            return;
        }
        startedBy = name;
        Tool tool;
        try {
            ServiceInfo info = service.getPackageManager().getServiceInfo(
                    new ComponentName(service, service.getClass()), PackageManager.GET_META_DATA);
            tool = describe(service.getResources(), info.metaData);
            if (timeoutOverrideMillis > 0) {
                tool.setTimeoutMillis(timeoutOverrideMillis);
            }
            service.registerHandlers(new ToolHandlers(tool, new CallerSigners(service.getPackageManager())));
        } catch (Exception e) {
            String why = name + " cannot start its Mobile-MCP tool: " + (e.getMessage() != null ? e.getMessage() : e);
            Log.e(McpToolService.LOG_TAG, why, e);
            bridge.startFailed(why);
            return;
        }
        try {
            bridge.start(tool);
        } catch (Exception e) {
            // The engine keeps the reason too, and answers every request with it.
            Log.e(McpToolService.LOG_TAG, name + ": " + e.getMessage());
        }
    }

    /** Whether a tool service has started the tool in this process. */
    synchronized boolean started() {
        return startedBy != null;
    }

    /**
     * The engine's Tool for the descriptor and name the service's meta-data give. The name may be a
     * string (android:value) or a string resource (android:resource), so it is read untyped.
     */
    @SuppressWarnings("deprecation") // Bundle.get: the only getter for either type
    private static Tool describe(Resources res, Bundle meta) throws Exception {
        String capabilities = Intentbridge.MetaToolCapabilities;
        int id = meta == null ? 0 : meta.getInt(capabilities, 0);
        if (id == 0) {
            throw new IllegalStateException("the service has no " + capabilities
                    + " meta-data naming its descriptor; add <meta-data android:name=\"" + capabilities
                    + "\" android:resource=\"@xml/mcp_capabilities\"/> to it in the manifest");
        }
        Tool tool = Intentbridge.newTool("res/xml/" + res.getResourceEntryName(id) + ".xml", DescriptorTree.read(res, id));
        Object title = meta.get(Intentbridge.MetaToolName);
        tool.setTitle(title instanceof Integer ? res.getString((Integer) title) : String.valueOf(title));
        return tool;
    }

    // The requests of every transport. Each passes the engine's one admission before anything is
    // queued (Bridge.queue: the size check, the cap per caller and the budget of the callers Android
    // does not name), and the process's workers run them, no caller more than its share at once
    // (Bridge.runNext). A refused request is answered at once, on the calling thread.

    /**
     * Queues a binding request of callerPackage, the package of the Binder uid that sent it, which no
     * app can forge; "" for a uid without one. Returns whether it was queued rather than refused.
     */
    boolean queueBound(String json, String callerPackage, ReplyTarget to) {
        return queued(bridge.queue(escapeLoneSurrogates(json), callerPackage, asking(callerPackage, to), null));
    }

    /**
     * Queues a request that came in an Intent. callerPackage is only the creator of its callback
     * PendingIntent, which any app holding that PendingIntent can claim ("" without a callback): the
     * engine runs only read-only capabilities for it, and counts it against the budget the callers
     * Android does not name share. done is told once it has run, unless it was refused (false).
     */
    boolean queueIntent(String json, String callerPackage, ReplyTarget to, Done done) {
        return queued(bridge.queueIntent(escapeLoneSurrogates(json), callerPackage, asking(callerPackage, to), done));
    }

    /** Queues a request of adb's shell, which AdbProvider has checked. */
    boolean queueShell(String json, ReplyTarget to) {
        return queued(bridge.queueShell(escapeLoneSurrogates(json), to, null));
    }

    /** When the engine queued a request, has a worker take the next turn. */
    private boolean queued(boolean queued) {
        if (queued) {
            workers.execute(this::runQueued);
        }
        return queued;
    }

    /**
     * A worker's turn: runs queued requests until none may run now. A request that waits because its
     * caller runs its share already runs on the worker that ends one of the caller's.
     */
    private void runQueued() {
        bridge.runNext(); // runs them all on this thread, in one call into the engine
    }

    /** to, which first asks the user about callerPackage when the engine answers consent_required. */
    private ReplyTarget asking(String callerPackage, ReplyTarget to) {
        return (spec, flat, requestId, errorCode) -> {
            if ("consent_required".equals(errorCode) && !callerPackage.isEmpty()) {
                ask(callerPackage);
            }
            to.send(spec, flat, requestId, errorCode);
        };
    }

    /**
     * Writes each half of a surrogate pair that lacks its other half as a JSON escape. A Java string
     * can hold one, though it is not a character, and crossing into Go it would become U+FFFD, which
     * the engine cannot tell from a real one: the text would be used as if it were what the caller
     * meant. Escaped, the engine sees it and refuses the argument that holds it (invalid_arguments);
     * outside a JSON string the escape is as invalid as the character was.
     */
    static String escapeLoneSurrogates(String json) {
        StringBuilder out = null;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            if (!Character.isSurrogate(c)) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (Character.isHighSurrogate(c) && i + 1 < json.length() && Character.isLowSurrogate(json.charAt(i + 1))) {
                if (out != null) {
                    out.append(c).append(json.charAt(i + 1));
                }
                i++;
                continue;
            }
            if (out == null) {
                out = new StringBuilder(json.length() + 16).append(json, 0, i);
            }
            out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
        }
        return out == null ? json : out.toString();
    }

    /** Gives every capability this deadline; see EngineAccess.setTimeoutMillis. */
    synchronized void setTimeoutOverride(long millis) {
        if (startedBy != null) {
            throw new IllegalStateException("the tool has started already; set the deadline before the service is created");
        }
        timeoutOverrideMillis = millis;
    }

    /** Questions the user dismissed, kept away for a while. */
    private final DismissedQuestions dismissed = new DismissedQuestions();

    // The user's decisions about calling apps.

    /**
     * Asks the user about callerPackage, which just got consent_required: a notification, and a row
     * in the settings screen, which stays usable when notifications are off (Android 13+ asks).
     */
    void ask(String callerPackage) {
        asking.add(callerPackage);
        if (dismissed.mayAsk(callerPackage, SystemClock.elapsedRealtime())) {
            ConsentPrompt.ask(app, callerPackage);
        }
    }

    /** The user swiped the question about callerPackage away: it waits a while before it comes back. */
    void dismissedQuestion(String callerPackage) {
        dismissed.dismissed(callerPackage, SystemClock.elapsedRealtime());
        consents.dismissed(callerPackage);
    }

    /** The apps waiting for a decision, sorted. */
    List<String> asking() {
        List<String> list = new ArrayList<>(asking);
        Collections.sort(list);
        return list;
    }

    /** Records the decision about callerPackage and withdraws the question. Writes a file: not on the main thread. */
    void decide(String callerPackage, boolean allow) throws Exception {
        if (allow) {
            bridge.allowCaller(callerPackage);
        } else {
            bridge.denyCaller(callerPackage);
        }
        asking.remove(callerPackage);
        dismissed.decided(callerPackage);
        ConsentPrompt.dismiss(app, callerPackage);
        consents.decided(callerPackage, allow);
    }

    /**
     * Forgets the decision about callerPackage (the user revoked it, or the app was removed) and withdraws a
     * question about it. Writes a file: not on the main thread.
     */
    void forget(String callerPackage) throws Exception {
        bridge.forgetCaller(callerPackage);
        asking.remove(callerPackage);
        ConsentPrompt.dismiss(app, callerPackage);
    }

    /** A thread for work the main thread must not do, such as writing a decision (synced to disk). */
    synchronized ExecutorService background() {
        if (background == null) {
            background = Executors.newSingleThreadExecutor(r -> new Thread(r, "mobile-mcp-settings"));
        }
        return background;
    }

    // The developer switch.

    boolean isDebuggable() {
        return (app.getApplicationInfo().flags & ApplicationInfo.FLAG_DEBUGGABLE) != 0;
    }

    private SharedPreferences prefs() {
        return app.getSharedPreferences(PREFS, Context.MODE_PRIVATE);
    }

    boolean developerSwitch() {
        return prefs().getBoolean(PREF_ALLOW_NO_CALLBACK, false);
    }

    void setDeveloperSwitch(boolean on) {
        prefs().edit().putBoolean(PREF_ALLOW_NO_CALLBACK, on).apply();
        applyNoCallbackRule();
    }

    /**
     * Tells the engine whether requests without a callback (adb) may run: in a debuggable build, or
     * with the developer switch on. The rule itself, and the refusal, live in the engine, so every
     * transport applies the same one.
     */
    void applyNoCallbackRule() {
        bridge.setAllowNoCallback(isDebuggable() || developerSwitch());
    }

    private synchronized void close() {
        try {
            bridge.close();
        } catch (Exception e) {
            Log.w(McpToolService.LOG_TAG, "closing the reply store", e);
        }
        if (background != null) {
            background.shutdown();
        }
        // The workers stay: a service of the old Application may still queue a request, which
        // must not be refused for want of a thread. Idle, they end after 30 s.
    }
}

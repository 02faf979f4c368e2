package io.github.mobilemcp.app;

import android.annotation.TargetApi;
import android.content.BroadcastReceiver;
import android.content.ComponentName;
import android.content.Context;
import android.content.Intent;
import android.content.IntentFilter;
import android.content.SharedPreferences;
import android.content.pm.PackageManager;
import android.content.pm.ServiceInfo;
import android.os.Build;
import android.os.Handler;
import android.os.HandlerThread;
import android.util.Log;

import io.github.mobilemcp.client.MobileMcpClient;
import io.github.mobilemcp.client.MobileMcpException;
import io.github.mobilemcp.client.Mode;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.client.Request;
import io.github.mobilemcp.client.Tool;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.smsapp.RemoteCaller;
import io.github.mobilemcp.smsapp.Server;
import io.github.mobilemcp.smsapp.Smsapp;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.internal.DescriptorTree;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.internal.PackageSigners;

import org.json.JSONObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The gateway: the MCP server ({@link McpHttp}) serves, next to this app's own tools, those of every
 * other Mobile-MCP tool on the phone that the user chose to share (docs/desktop.md, "Use your phone's
 * tools from a desktop agent").
 *
 * <p>It finds the tools with the client library, as any assistant does, and gives the engine each
 * shared tool's descriptor as its JSON tree ({@link DescriptorTree}): the engine converts it to MCP tools, as
 * {@code mobilemcp tools} does, and calls them through {@link #call}. Every tool is off until the
 * user turns it on ({@link #setShared}, kept in this app's private preferences with the app's
 * signer: a share belongs to an app, not a package name). While the server runs, a receiver follows
 * installs, updates and removals; {@link SharedPackageRemovedReceiver} forgets the share of a
 * removed app even when it does not run.
 *
 * <p>Calls go out as this app, with the client library, by binding; a read-only capability goes by
 * Intent when the tool cannot be bound (the client always binds for one that changes something,
 * and a tool runs that only for a caller Android names): each tool validates, asks its user about this app and keeps its reply store as
 * for any caller. Discovery and calls run off the main thread: discovery on the gateway's own
 * thread, calls on the engine's. One per process ({@link #of}). Safe for concurrent use.
 */
final class Gateway implements RemoteCaller {
    private static final String TAG = McpToolService.LOG_TAG;
    /** The private preferences that hold which packages the user shares: package name to signer. */
    static final String PREFS = "gateway";

    private static final PerApplication<Gateway> PROCESS = new PerApplication<>(Gateway::new, Gateway::close);

    /** Another app's Mobile-MCP tool, as the screen lists it. */
    static final class Shareable {
        final String packageName;
        final String name;
        final boolean shared;
        /** Why it cannot be served (its descriptor has errors, say), or null. */
        final String problem;

        Shareable(String packageName, String name, boolean shared, String problem) {
            this.packageName = packageName;
            this.name = name;
            this.shared = shared;
            this.problem = problem;
        }

        @Override
        public String toString() {
            return packageName + " (" + name + "): " + (shared ? "shared" : "not shared") + (problem != null ? ", " + problem : "");
        }
    }

    private final Context app;
    private final HandlerThread thread = new HandlerThread("mobile-mcp-gateway");
    private final Handler handler;
    private final MobileMcpClient client;
    /** The other apps' tools found last, by package, in discovery order. */
    private final Map<String, Tool> found = new LinkedHashMap<>();
    /** Why a found tool cannot be served, by package. */
    private final Map<String, String> problems = new LinkedHashMap<>();
    /** Set while the server runs: the package receiver is registered and tools are served. */
    private boolean serving;
    private final List<Runnable> listeners = new ArrayList<>();

    private final BroadcastReceiver packages = new BroadcastReceiver() {
        @Override
        public void onReceive(Context context, Intent intent) {
            refresh(); // already on the gateway's thread
        }
    };

    private Gateway(Context app) {
        this.app = app;
        thread.start();
        handler = new Handler(thread.getLooper());
        client = new MobileMcpClient(app);
    }

    /** The gateway of context's process. */
    static Gateway of(Context context) {
        return PROCESS.get(context);
    }

    /** The app's MCP server and gateway, on the tool's engine. */
    private Server engine() {
        return Smsapp.serverFor(EngineAccess.bridge(app));
    }

    /**
     * Serves the shared tools, and follows package changes until {@link #stop}. Called when the
     * server starts; it reads other apps' resources, so not on the main thread.
     */
    void start() {
        synchronized (this) {
            if (serving) {
                return;
            }
            serving = true;
        }
        engine().setRemoteCaller(this);
        IntentFilter filter = new IntentFilter();
        filter.addAction(Intent.ACTION_PACKAGE_ADDED);
        filter.addAction(Intent.ACTION_PACKAGE_REPLACED);
        filter.addAction(Intent.ACTION_PACKAGE_REMOVED);
        filter.addDataScheme("package");
        // Package broadcasts come from the system only, so the receiver need not be exported.
        if (Build.VERSION.SDK_INT >= 33) {
            registerNotExported(filter);
        } else {
            app.registerReceiver(packages, filter, null, handler);
        }
        refresh();
    }

    @TargetApi(33) // called only from API 33 on
    private void registerNotExported(IntentFilter filter) {
        app.registerReceiver(packages, filter, null, handler, Context.RECEIVER_NOT_EXPORTED);
    }

    /** Stops following package changes and serving other apps' tools. Called when the server stops. */
    void stop() {
        List<String> served;
        synchronized (this) {
            if (!serving) {
                return;
            }
            serving = false;
            served = new ArrayList<>(found.keySet());
        }
        app.unregisterReceiver(packages);
        for (String pkg : served) {
            engine().removeRemoteTool(pkg);
        }
    }

    /** The other apps' Mobile-MCP tools found last, with whether each is shared. */
    synchronized List<Shareable> tools() {
        List<Shareable> list = new ArrayList<>();
        for (Tool tool : found.values()) {
            list.add(new Shareable(tool.packageName(), tool.name(), isShared(tool.packageName()), problems.get(tool.packageName())));
        }
        return Collections.unmodifiableList(list);
    }

    /** Calls listener on the gateway's thread whenever the list of tools may have changed. */
    synchronized void addListener(Runnable listener) {
        listeners.add(listener);
    }

    synchronized void removeListener(Runnable listener) {
        listeners.remove(listener);
    }

    /**
     * Whether the user shares packageName's tool: they turned it on for the app that holds the name
     * now, signed with the same certificate ({@link PackageSigners}).
     */
    boolean isShared(String packageName) {
        String recorded = recordedSigner(packageName);
        return recorded != null && recorded.equals(signerOf(packageName));
    }

    /**
     * Shares packageName's tool, or stops sharing it; kept across restarts with the app's signer, so
     * that the share does not pass to another app installed later under the name. A package that is
     * not installed cannot be shared. Any thread.
     */
    void setShared(String packageName, boolean shared) {
        String signer = shared ? signerOf(packageName) : null;
        synchronized (this) {
            SharedPreferences.Editor edit = prefs().edit();
            if (signer != null) {
                edit.putString(packageName, signer);
            } else {
                edit.remove(packageName);
            }
            edit.apply();
        }
        handler.post(this::refresh);
    }

    /**
     * Forgets the share of packageName, which was removed from the phone
     * ({@link SharedPackageRemovedReceiver}): an app installed later under the name is not shared
     * until the user turns it on. Without the gateway running.
     */
    static void forget(Context context, String packageName) {
        context.getSharedPreferences(PREFS, Context.MODE_PRIVATE).edit().remove(packageName).apply();
    }

    /**
     * Why packageName's tool must not be served or called, or null when the user shares it. A share
     * recorded for another signer, or before shares were kept with one, is dropped: another app has
     * the name, and the user must share it again. One that cannot be checked (the package is being
     * replaced, say) is kept, and not served meanwhile.
     */
    private synchronized String notShared(String packageName) {
        Object recorded = prefs().getAll().get(packageName);
        String now = signerOf(packageName);
        if (recorded != null && recorded.equals(now)) {
            return null;
        }
        if (!(recorded instanceof String)) {
            if (recorded != null) {
                prefs().edit().remove(packageName).apply(); // shared before shares were kept with the signer
            }
            return packageName + " is not shared";
        }
        if (now == null) {
            return packageName + " is not installed, or has no signing certificate";
        }
        prefs().edit().remove(packageName).apply();
        return packageName + " is signed by another certificate than when it was shared; share it again to use it";
    }

    /** The signer recorded when the user shared packageName, or null. */
    private String recordedSigner(String packageName) {
        Object recorded = prefs().getAll().get(packageName);
        return recorded instanceof String ? (String) recorded : null; // a Boolean: shared before signers were kept
    }

    /** packageName's signer now, or null when it is not installed or has no certificate. */
    private String signerOf(String packageName) {
        try {
            return PackageSigners.sha256(app.getPackageManager(), packageName);
        } catch (PackageManager.NameNotFoundException | IllegalStateException e) {
            return null;
        }
    }

    private SharedPreferences prefs() {
        return app.getSharedPreferences(PREFS, Context.MODE_PRIVATE);
    }

    /** Finds the tools again on the gateway's thread ({@link #refresh}); listeners hear when it is done. */
    void refreshSoon() {
        handler.post(this::refresh);
    }

    /**
     * Finds the tools again and tells the engine what to serve: each shared tool's descriptor, and
     * no tool of a package that is gone or not shared. On the gateway's thread, or the server's as
     * it starts. Without the server it only updates the list.
     */
    void refresh() {
        Map<String, Tool> now = new LinkedHashMap<>();
        for (Tool tool : client.discover().tools()) {
            if (!tool.packageName().equals(app.getPackageName()) && !now.containsKey(tool.packageName())) {
                now.put(tool.packageName(), tool); // one tool per app (the Mobile-MCP spec §1.1)
            }
        }
        Map<String, String> failures = new LinkedHashMap<>();
        List<String> gone;
        boolean serve;
        synchronized (this) {
            gone = new ArrayList<>(found.keySet());
            gone.removeAll(now.keySet());
            serve = serving;
        }
        if (serve) {
            Server engine = engine();
            for (String pkg : gone) {
                engine.removeRemoteTool(pkg);
            }
            for (Tool tool : now.values()) {
                String problem = apply(engine, tool);
                if (problem != null) {
                    failures.put(tool.packageName(), problem);
                }
            }
        }
        List<Runnable> notify;
        synchronized (this) {
            found.clear();
            found.putAll(now);
            problems.clear();
            problems.putAll(failures);
            notify = new ArrayList<>(listeners);
        }
        for (Runnable listener : notify) {
            listener.run();
        }
    }

    /** Serves tool if it is shared, else not; returns why it cannot be served, or null. */
    private String apply(Server engine, Tool tool) {
        String pkg = tool.packageName();
        if (notShared(pkg) != null) {
            engine.removeRemoteTool(pkg);
            return null;
        }
        try {
            engine.setRemoteTool(pkg, descriptor(tool), true);
            return null;
        } catch (Exception e) {
            Log.w(TAG, "cannot share " + pkg + ": " + e.getMessage());
            engine.removeRemoteTool(pkg);
            return e.getMessage();
        }
    }

    /** The JSON tree of tool's descriptor, read from its app's resources as the client library reads it. */
    private String descriptor(Tool tool) throws Exception {
        PackageManager pm = app.getPackageManager();
        ServiceInfo info = pm.getServiceInfo(new ComponentName(tool.packageName(), tool.serviceName()), PackageManager.GET_META_DATA);
        int id = info.metaData.getInt(Intentbridge.MetaToolCapabilities);
        return DescriptorTree.read(pm.getResourcesForApplication(info.applicationInfo), id);
    }

    /**
     * The engine's call of a shared tool: by binding, and, for a read-only capability only, by
     * Intent when the tool cannot be bound (and so never saw the request); the client library binds
     * for a capability that changes something whatever the mode. It goes under requestId, which the
     * engine derives from the MCP client's own request id and is the same for each retry, so the
     * tool's reply store answers a retry with the first run's reply; under a fresh id when it is
     * empty. Returns the tool's reply JSON; throws when it cannot be reached or does not answer in
     * time, and the engine turns that into the MCP error.
     */
    @Override
    public String call(String packageName, String capability, String requestId, String argsJSON, long timeoutMillis) throws Exception {
        Tool tool;
        synchronized (this) {
            tool = found.get(packageName);
        }
        if (tool == null) {
            throw new IllegalStateException(packageName + " has no Mobile-MCP tool on this phone any more");
        }
        // The share may have gone since the engine was told (another app has the name, and the
        // package broadcast is still on its way): such an app is not called, and its tools go.
        String notShared = notShared(packageName);
        if (notShared != null) {
            refreshSoon();
            throw new IllegalStateException(notShared);
        }
        Request request = client.request(tool, capability, new JSONObject(argsJSON));
        if (!requestId.isEmpty()) {
            request = request.withId(requestId);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        try {
            return await(request.withTimeoutMillis(timeoutMillis).send());
        } catch (MobileMcpException e) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (!e.nothingRan() || left <= 0) {
                throw e;
            }
            return await(request.withMode(Mode.INTENT).withTimeoutMillis(left).send());
        }
    }

    private static String await(Future<Reply> reply) throws Exception {
        try {
            return reply.get().json();
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof MobileMcpException) {
                throw (MobileMcpException) cause;
            }
            throw e;
        }
    }

    private void close() {
        stop();
        client.close();
        thread.quitSafely();
    }
}

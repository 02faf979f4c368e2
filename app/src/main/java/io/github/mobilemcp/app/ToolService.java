package io.github.mobilemcp.app;

import android.app.Service;
import android.content.Intent;
import android.content.pm.ApplicationInfo;
import android.os.IBinder;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.intentbridge.Reply;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The Mobile-MCP tool service (seed 004 §3). An agent starts it with an Intent that carries a JSON
 * request and a mutable PendingIntent; the Go engine answers, and the reply goes back through that
 * PendingIntent as fill-in extras.
 *
 * <p>Both request shapes are accepted: the specification's ({@code mobile-mcp-request} and
 * {@code mobile-mcp-callback}) and the prototype agent's ({@code request} and {@code mcp_callback}).
 * Java only moves strings: the engine parses either shape and says how to answer.
 *
 * <p>Threading: {@link #onStartCommand} runs on the main thread. It only calls
 * {@code startForeground} and queues the request. The engine, and the SMS platform it calls (which
 * blocks until every part's sent result arrives), run on one worker thread, never on the main
 * thread.
 *
 * <p>A request without a callback (adb testing) is answered in logcat, under {@link #LOG_TAG}, as
 * one line of JSON, and only by a debuggable build: a release build refuses it, because logcat
 * would be its only reply channel and the request would have no caller to account it to.
 */
public class ToolService extends Service {
    /**
     * The logcat tag of everything this service logs. A reply to a request without a callback is
     * logged under it at INFO as one line of JSON; {@code mobilemcp adb call} and
     * {@code adb logcat -s MobileMCP} read it there. It equals {@code adb.LogTag} in the Go module.
     */
    public static final String LOG_TAG = "MobileMCP";

    private ExecutorService worker;
    private AndroidPlatform platform;
    private Bridge bridge;
    private ReplySender replies;

    @Override
    public void onCreate() {
        super.onCreate();
        // One worker, so requests finish in the order they started. stopSelf(startId) relies on
        // that (see onStartCommand).
        worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "mobile-mcp-engine"));
        platform = new AndroidPlatform(this);
        replies = new ReplySender(this);
        bridge = openBridge(platform, getFilesDir().getPath(), capabilityTimeoutMillis());
    }

    /**
     * Opens the engine with its reply store in dataDir. If the store cannot be read, the engine
     * still serves requests, with a store in memory: a retry after a restart may then send again,
     * which is better than no tool at all, and the error says so in logcat.
     */
    private static Bridge openBridge(AndroidPlatform platform, String dataDir, long timeoutMillis) {
        try {
            // The first use of a gobind class loads libgojni.so (go.Seq's static block).
            return Intentbridge.newBridgeWithTimeout(platform, dataDir, timeoutMillis);
        } catch (Exception e) {
            Log.e(LOG_TAG, "cannot open the reply store in " + dataDir
                    + "; repeated request ids are only recognised until the app stops", e);
        }
        try {
            return Intentbridge.newBridgeWithTimeout(platform, "", timeoutMillis);
        } catch (Exception e) {
            // Only a null platform fails here.
            throw new IllegalStateException("cannot start the Mobile-MCP engine", e);
        }
    }

    /**
     * The deadline of every capability, in milliseconds, or 0 for each capability's own (60 s for
     * send_sms, including the wait for sent results). Tests override it to reach the timeout path
     * quickly; the app has no reason to.
     */
    long capabilityTimeoutMillis() {
        return 0;
    }

    @Override
    public int onStartCommand(Intent intent, int flags, int startId) {
        // First, always: an agent that used startForegroundService gets an ANR unless we call
        // startForeground promptly, and Android does not tell a service how it was started.
        Foreground.start(this);

        ToolRequest request = ToolRequest.from(intent);
        if (!request.hasCallback() && !isDebuggable()) {
            Log.w(LOG_TAG, "refused a request without a callback: only debuggable builds answer"
                    + " in logcat (adb testing); agents must send " + Intentbridge.ExtraCallback);
            stopSelf(startId);
            return START_NOT_STICKY;
        }
        worker.execute(() -> {
            try {
                replies.send(request, handle(request));
            } finally {
                // Stop from the worker, with this request's startId. If another request arrived
                // meanwhile, startId is no longer the newest, and Android keeps the service
                // running for it: stopSelf(int) only stops when the id is the last one delivered.
                // The single worker finishes requests in order, so the last stopSelf to succeed
                // comes after every earlier request has been answered.
                stopSelf(startId);
            }
        });
        // A killed service must not be restarted with a null Intent: the agent will retry.
        return START_NOT_STICKY;
    }

    /** Runs on the worker thread. Go recovers its own panics and always returns a reply. */
    private Reply handle(ToolRequest request) {
        return bridge.handle(request.json(), request.callerPackage());
    }

    private boolean isDebuggable() {
        return (getApplicationInfo().flags & ApplicationInfo.FLAG_DEBUGGABLE) != 0;
    }

    @Override
    public void onDestroy() {
        // Requests still queued run first; then the platform's receiver thread and the reply store
        // are closed, on the worker, so that no request ever sees them closed.
        worker.execute(this::closeEngine);
        worker.shutdown();
        Foreground.stop(this);
        super.onDestroy();
    }

    private void closeEngine() {
        platform.close();
        try {
            bridge.close();
        } catch (Exception e) {
            Log.w(LOG_TAG, "closing the reply store", e);
        }
    }

    /** Binding is not offered: agents use startForegroundService with a callback. */
    @Override
    public IBinder onBind(Intent intent) {
        return null;
    }
}

package io.github.mobilemcp.sdk;

import android.app.Service;
import android.content.Intent;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.IBinder;
import android.os.Looper;
import android.os.Messenger;
import android.util.Log;

import io.github.mobilemcp.intentbridge.ReplyTarget;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The base class of a Mobile-MCP tool service: extend it, register a handler per capability, and
 * declare the subclass in your manifest with the {@code mobile.mcp.SERVICE} intent filter and the
 * three meta-data entries of the Mobile-MCP spec §1.1 (see the guide).
 *
 * <pre>{@code
 * public class NotesToolService extends McpToolService {
 *     @Override
 *     protected void registerHandlers(ToolHandlers handlers) {
 *         handlers.on("list_notes", call -> ToolResult.success("2 notes").put("count", 2));
 *     }
 * }
 * }</pre>
 *
 * <p>Everything else is done for you, by the engine inside this library: agents invoke the service
 * with an Intent (the spec's extras or the prototype agent's) or by binding to it; each request
 * is checked against the descriptor the service's {@code mobile.mcp.tool.capabilities} meta-data
 * names; a capability that is not read-only runs only over binding mode, where Android names the
 * calling app (over an Intent the caller is only the creator of the callback PendingIntent, which
 * any app holding it can claim, so such a request gets permission_denied telling it to bind), needs
 * the user's consent for that app (a notification asks) and is rate limited; a retried request id is answered from a store that
 * survives restarts; and every request gets exactly one reply: through the caller's PendingIntent,
 * as a Message over the binding, or in logcat under {@link #LOG_TAG} for a request without a
 * callback (adb, accepted in debuggable builds and with the developer switch).
 *
 * <p>Threading: handlers run on worker threads, up to {@link #MAX_CONCURRENT_CALLS} at once, never
 * on the main thread. The service runs in the foreground while it has requests, and stops itself
 * when the last one is answered.
 *
 * <p>Override {@code onCreate}, {@code onStartCommand}, {@code onBind} or {@code onDestroy} only to
 * add to them, and call the super method.
 */
public abstract class McpToolService extends Service {
    /**
     * The logcat tag of everything the SDK logs. A reply to a request without a callback is logged
     * under it at INFO as one line of JSON.
     */
    public static final String LOG_TAG = "MobileMCP";

    /** Binding mode: the {@code what} of a request Message (as in the prototype tool). */
    public static final int MSG_INVOKE = 1;
    /** Binding mode: the {@code what} of a reply Message (as in the prototype tool). */
    public static final int MSG_RESULT = 2;

    /**
     * Binding mode: the {@code what} of a Message that waits for the user's decision about the
     * sending app (a mobilemcp extension). One {@link #MSG_CONSENT} answers it, at once when the
     * user has decided, else when they decide or put the question away.
     */
    public static final int MSG_AWAIT_CONSENT = 3;
    /**
     * Binding mode: the {@code what} of the answer to {@link #MSG_AWAIT_CONSENT} and
     * {@link #MSG_CONSENT_QUESTION}: data holds {@link #EXTRA_CONSENT}, and for a question
     * {@link #EXTRA_CONSENT_QUESTION}; {@code arg1} is the request's.
     */
    public static final int MSG_CONSENT = 4;
    /**
     * Binding mode: the {@code what} of a Message that asks for the question about the sending app,
     * a PendingIntent that opens it inside the tool, where only the user's own tap decides.
     */
    public static final int MSG_CONSENT_QUESTION = 5;
    /** In a {@link #MSG_CONSENT}: "allowed", "denied", "dismissed" (the user put the question away) or "waiting". */
    public static final String EXTRA_CONSENT = "mobile-mcp-consent";
    /** In a {@link #MSG_CONSENT} that answers {@link #MSG_CONSENT_QUESTION}: the PendingIntent that opens the question. */
    public static final String EXTRA_CONSENT_QUESTION = "mobile-mcp-consent-question";

    /** How many handlers run at once; more requests wait their turn. */
    public static final int MAX_CONCURRENT_CALLS = 4;

    private ToolRuntime runtime;
    private ThreadPoolExecutor workers;
    private HandlerThread bindingThread;
    private Messenger messenger;
    private Handler main;
    /** Requests started with startService and not yet answered. Main thread only. */
    private int running;
    /** The newest startId. Main thread only. */
    private int lastStartId;

    /**
     * Registers the handler of every capability your descriptor declares, with
     * {@link ToolHandlers#on}. Called once per process, on the main thread, before the first
     * request runs. Handlers must not keep this Service, which Android destroys and recreates;
     * use {@code getApplicationContext()} for what they need.
     */
    protected abstract void registerHandlers(ToolHandlers handlers);

    @Override
    public void onCreate() {
        super.onCreate();
        main = new Handler(Looper.getMainLooper());
        workers = new ThreadPoolExecutor(MAX_CONCURRENT_CALLS, MAX_CONCURRENT_CALLS, 30, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), r -> new Thread(r, "mobile-mcp-worker"));
        workers.allowCoreThreadTimeOut(true);
        runtime = ToolRuntime.get(this);
        runtime.start(this);
        bindingThread = new HandlerThread("mobile-mcp-binding");
        bindingThread.start();
        messenger = new Messenger(new BindingHandler(bindingThread.getLooper(), this));
    }

    @Override
    public int onStartCommand(@Nullable Intent intent, int flags, int startId) {
        // First, always: an agent that used startForegroundService gets an ANR unless we call
        // startForeground promptly, and Android does not tell a service how it was started.
        Foreground.startForRequests(this);
        lastStartId = startId;
        running++;
        IntentRequest request = IntentRequest.from(intent);
        String caller = request.callerPackage();
        ReplyTarget to = request.callback == null ? new Replies.ToLogcat()
                : new Replies.ToPendingIntent(this, request.callback, caller);
        if (!execute(() -> runtime.handle(request.json, caller, true, to), this::startedRequestDone)) {
            startedRequestDone();
        }
        // A killed service must not be restarted with a null Intent: the agent will retry.
        return START_NOT_STICKY;
    }

    /**
     * Counts an answered start request, on the main thread, and stops the service after the last
     * one. Counting rather than stopSelf(startId) per request, because requests finish in any
     * order, and stopSelf(startId) with the newest id would stop the service while an older
     * request still runs.
     */
    private void startedRequestDone() {
        main.post(() -> {
            if (--running == 0) {
                stopSelf(lastStartId); // a no-op if another start arrived meanwhile
            }
        });
    }

    /** Binding mode: the Messenger agents send requests to. */
    @Override
    public IBinder onBind(Intent intent) {
        return messenger.getBinder();
    }

    /**
     * How many binding requests one calling uid may have queued or running at once. One more is
     * answered rate_limited at once, without being queued, so one app cannot fill the workers'
     * queue (and the heap) and hold up every other caller (docs/reliability.md).
     */
    public static final int MAX_IN_FLIGHT_PER_CALLER = 128;
    /**
     * Requests longer than this many chars are answered too_large before they are queued. The
     * engine's limit is 64 KiB of UTF-8, which is never fewer bytes than chars, so nothing the
     * engine would take is refused here; the engine still checks the bytes exactly.
     */
    static final int MAX_REQUEST_CHARS = 64 << 10;

    /** Binding requests queued or running, by calling uid. */
    private final Map<Integer, Integer> inFlight = new HashMap<>();

    /** Runs a binding request of caller (the package of uid) on a worker. */
    void runBound(String json, int uid, String caller, ReplyTarget to) {
        if (json.length() > MAX_REQUEST_CHARS) {
            runtime.bridge.reject(json, "too_large", "the request is " + json.length() + " characters; the limit is " + MAX_REQUEST_CHARS + " bytes of UTF-8", to);
            return;
        }
        if (!acquire(uid)) {
            runtime.bridge.reject(json, "rate_limited", (caller.isEmpty() ? "uid " + uid : caller) + " has " + MAX_IN_FLIGHT_PER_CALLER
                    + " requests in flight to this tool, the most one app may have; send the next once one is answered", to);
            return;
        }
        if (!execute(() -> runtime.handle(json, caller, false, to), () -> release(uid))) {
            release(uid);
            Log.w(LOG_TAG, "dropped a binding request from " + caller + " that arrived while the service stopped");
        }
    }

    private synchronized boolean acquire(int uid) {
        int n = inFlight.getOrDefault(uid, 0);
        if (n >= MAX_IN_FLIGHT_PER_CALLER) {
            return false;
        }
        inFlight.put(uid, n + 1);
        return true;
    }

    private synchronized void release(int uid) {
        int n = inFlight.getOrDefault(uid, 1) - 1;
        if (n <= 0) {
            inFlight.remove(uid);
        } else {
            inFlight.put(uid, n);
        }
    }

    /** Queues work, then done, on a worker; false if the service is stopping. */
    private boolean execute(Runnable work, Runnable done) {
        try {
            workers.execute(() -> {
                try {
                    work.run();
                } finally {
                    done.run();
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    @Override
    public void onDestroy() {
        // Requests still queued run first; the engine belongs to the process and stays.
        bindingThread.quitSafely();
        workers.shutdown();
        Foreground.stop(this);
        super.onDestroy();
    }
}

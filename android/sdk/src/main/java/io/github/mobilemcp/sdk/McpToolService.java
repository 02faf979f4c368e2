package io.github.mobilemcp.sdk;

import android.app.Service;
import android.content.Intent;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.IBinder;
import android.os.Looper;
import android.os.Messenger;

import io.github.mobilemcp.intentbridge.ReplyTarget;
import io.github.mobilemcp.sdk.internal.Foreground;

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
 * <p>Threading: handlers run on worker threads, up to four at once (more requests wait their
 * turn), never on the main thread, and no calling app runs more than two of them while others
 * wait: each app's requests take turns with the others'. The service runs in the foreground while it has
 * requests, and stops itself when the last one is answered.
 *
 * <p>Bounded work: every request, by binding, in an Intent or from adb, passes one admission before
 * it is queued. A request over the engine's size limit is answered too_large, and one past 64
 * requests of its caller queued or running rate_limited, at once, so that one app cannot fill the
 * queue (and the heap). Requests whose caller Android does not name (an Intent's, whatever its
 * callback claims) share one such budget.
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

    private ToolRuntime runtime;
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
    public final void onCreate() {
        super.onCreate();
        main = new Handler(Looper.getMainLooper());
        runtime = ToolRuntime.get(this);
        runtime.start(this);
        bindingThread = new HandlerThread("mobile-mcp-binding");
        bindingThread.start();
        messenger = new Messenger(new BindingHandler(bindingThread.getLooper(), this));
    }

    @Override
    public final int onStartCommand(@Nullable Intent intent, int flags, int startId) {
        // First, always: an agent that used startForegroundService gets an ANR unless we call
        // startForeground promptly, and Android does not tell a service how it was started.
        ToolForeground.start(this);
        lastStartId = startId;
        running++;
        IntentRequest request = IntentRequest.from(intent);
        String caller = request.callerPackage();
        ReplyTarget to = request.callback == null ? new Replies.ToLogcat()
                : new Replies.ToPendingIntent(this, request.callback, caller);
        if (!runtime.queueIntent(request.json, caller, to, this::startedRequestDone)) {
            startedRequestDone(); // rejected at once: answered already
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
    public final IBinder onBind(Intent intent) {
        return messenger.getBinder();
    }

    /** Queues a binding request of caller, the package of the Message's sending uid. */
    void runBound(String json, String caller, ReplyTarget to) {
        runtime.queueBound(json, caller, to);
    }

    @Override
    public final void onDestroy() {
        // Requests still queued run; the engine and its workers belong to the process and stay.
        bindingThread.quitSafely();
        Foreground.stop(this);
        super.onDestroy();
    }
}

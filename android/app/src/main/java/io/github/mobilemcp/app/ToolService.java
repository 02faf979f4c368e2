package io.github.mobilemcp.app;

import android.app.Service;
import android.content.Intent;
import android.os.HandlerThread;
import android.os.IBinder;
import android.os.Messenger;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Reply;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

/**
 * The Mobile-MCP tool service (seed 004 §3). Agents invoke it in either of the specification's two
 * ways:
 * <ul>
 *   <li><b>Intent</b>: startForegroundService with an Intent that carries a JSON request and a
 *       mutable PendingIntent; the reply goes back through that PendingIntent as fill-in extras.
 *       Both request shapes are accepted: the specification's ({@code mobile-mcp-request} and
 *       {@code mobile-mcp-callback}) and the prototype agent's ({@code request} and
 *       {@code mcp_callback}).
 *   <li><b>Binding</b>: bindService, then Messages through the returned Messenger
 *       ({@link BindingHandler} describes the protocol).
 * </ul>
 * Java only moves strings: the Go engine parses either shape and says how to answer.
 *
 * <p>Who may do what is decided in Go, for every transport alike: the caller is the package that
 * created the callback PendingIntent, or the package of the binding's sending uid. Capabilities that
 * change something need the user's consent for that package; when the engine answers
 * consent_required, this service asks the user with a notification ({@link ConsentPrompt}). A
 * request without a callback (adb) runs only in a debuggable build or with the developer switch on
 * ({@link ToolApp#applyNoCallbackRule}), and its reply, whatever it is, goes to logcat under
 * {@link #LOG_TAG}, as one line of JSON.
 *
 * <p>Threading: {@link #onStartCommand} runs on the main thread. It only calls
 * {@code startForeground} and queues the request. Binding messages arrive on a HandlerThread of
 * their own. The engine, and the SMS platform it calls (which blocks until every part's sent result
 * arrives), run on one worker thread, never on the main thread: requests of both transports run one
 * at a time, in the order they arrived.
 */
public class ToolService extends Service {
    /**
     * The logcat tag of everything this service logs. A reply to a request without a callback is
     * logged under it at INFO as one line of JSON; {@code mobilemcp adb call} and
     * {@code adb logcat -s MobileMCP} read it there. It equals {@code adb.LogTag} in the Go module.
     */
    public static final String LOG_TAG = "MobileMCP";

    /** Binding mode: the {@code what} of a request Message (as in the prototype tool). */
    public static final int MSG_INVOKE = 1;
    /** Binding mode: the {@code what} of a reply Message (as in the prototype tool). */
    public static final int MSG_RESULT = 2;

    private ExecutorService worker;
    private HandlerThread bindingThread;
    private Messenger messenger;
    private Bridge bridge;
    private ReplySender replies;

    @Override
    public void onCreate() {
        super.onCreate();
        // One worker, so requests finish in the order they started. stopSelf(startId) relies on
        // that (see onStartCommand).
        worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "mobile-mcp-engine"));
        replies = new ReplySender(this);
        bridge = ToolApp.from(this).bridge();
        bindingThread = new HandlerThread("mobile-mcp-binding");
        bindingThread.start();
        messenger = new Messenger(new BindingHandler(bindingThread.getLooper(), this));
    }

    @Override
    public int onStartCommand(Intent intent, int flags, int startId) {
        // First, always: an agent that used startForegroundService gets an ANR unless we call
        // startForeground promptly, and Android does not tell a service how it was started.
        Foreground.start(this);

        ToolRequest request = ToolRequest.from(intent);
        worker.execute(() -> {
            try {
                replies.send(request, handle(request.json(), request.callerPackage()));
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

    /** Binding mode: the Messenger agents send requests to. */
    @Override
    public IBinder onBind(Intent intent) {
        return messenger.getBinder();
    }

    /**
     * Queues binding work on the worker, behind the requests already queued. A message that arrives
     * while the service is being destroyed (its last agent has just unbound) is dropped.
     */
    void execute(Runnable work) {
        try {
            worker.execute(work);
        } catch (RejectedExecutionException e) {
            Log.w(LOG_TAG, "dropped a binding request that arrived while the service stopped");
        }
    }

    /**
     * Runs one request on the worker thread. Go recovers its own panics and always returns a reply.
     * When the caller needs the user's consent, the user is asked.
     */
    Reply handle(String json, String callerPackage) {
        Reply reply = bridge.handle(json, callerPackage);
        if ("consent_required".equals(reply.errorCode()) && !callerPackage.isEmpty()) {
            ToolApp.from(this).ask(callerPackage);
        }
        return reply;
    }

    @Override
    public void onDestroy() {
        // Requests still queued run first; the bridge belongs to the process (ToolApp) and stays.
        bindingThread.quitSafely();
        worker.shutdown();
        Foreground.stop(this);
        super.onDestroy();
    }
}

package io.github.mobilemcp.client;

import io.github.mobilemcp.Consent;
import io.github.mobilemcp.ErrorCode;

import android.app.PendingIntent;
import android.content.Context;
import android.content.Intent;
import android.content.pm.PackageManager;
import android.content.pm.ResolveInfo;
import android.content.pm.ServiceInfo;
import android.content.res.Resources;
import android.content.res.XmlResourceParser;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.util.Log;

import org.json.JSONException;
import org.json.JSONObject;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * An assistant's side of Mobile-MCP (the Mobile-MCP spec): finds the tools on the phone and invokes their
 * capabilities. It depends on nothing but the Android framework (and JSpecify's nullness annotations).
 *
 * <pre>{@code
 * MobileMcpClient client = new MobileMcpClient(context);
 * Discovery found = client.discover();               // off the main thread: it reads other apps' XML
 * Tool tool = found.tools().get(0);
 * JSONObject forModel = tool.capability("send_sms").toMcpTool();
 * Request send = client.request(tool, "send_sms", new JSONObject().put("to_phone_number", "+36201234567").put("sms_text", "Hi"));
 * send.send()                                        // keep send: sending it again is a safe retry
 *     .thenAccept(reply -> ...);                     // reply.isSuccess(), reply.errorCode(), reply.outputs()
 * client.close();
 * }</pre>
 *
 * <p><b>Outcomes.</b> The future of {@link Request#send()} completes with the tool's {@link Reply},
 * success or failure alike (a failure carries the tool's message and error_code; a mobilemcp tool
 * answers a first send_sms with consent_required while it asks the user). It completes
 * exceptionally with a {@link CallTimeoutException} when no reply came in time, and with a
 * {@link MobileMcpException} when the tool could not be reached or its reply could not be read.
 * Cancelling the future abandons the call; the tool may still act on it.
 *
 * <p><b>In the background.</b> From Android 12 an app in the background may not start a
 * foreground service, so intent mode cannot reach a tool from there; such a call goes over a
 * binding instead ({@link Mode#INTENT}), which Android allows. An assistant that runs in the
 * background can ask for {@link Mode#BINDING} directly.
 *
 * <p><b>On Android 11 and later</b> an app sees other apps' services only if its manifest says so:
 * add {@code <queries><intent><action android:name="mobile.mcp.SERVICE" /></intent></queries>}.
 *
 * <p><b>Threads.</b> Safe for concurrent use. Replies arrive on the client's own thread
 * ({@code mobile-mcp-client}), where the futures complete; dependent stages without an executor run
 * there too, so keep them short. Binding needs the main thread free while it connects.
 */
public final class MobileMcpClient implements Closeable {
    private static final String TAG = "MobileMcpClient";

    private final Context context;
    private final HandlerThread thread;
    private final ScheduledExecutorService timer;
    private final IntentTransport intents;
    private final BindingTransport bindings;
    private final ConsentChannel consents;
    /** The calls in flight, by {@link Call#key}. */
    private final Map<String, Call> calls = new ConcurrentHashMap<>();
    private final AtomicLong attempts = new AtomicLong();
    private volatile boolean closed;

    /** A client for context's app. It starts a thread; {@link #close} stops it. */
    public MobileMcpClient(Context context) {
        this.context = context.getApplicationContext() != null ? context.getApplicationContext() : context;
        thread = new HandlerThread("mobile-mcp-client");
        thread.start();
        Handler handler = new Handler(thread.getLooper());
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "mobile-mcp-client-timer");
            t.setDaemon(true);
            return t;
        });
        intents = new IntentTransport(this.context, this, handler);
        bindings = new BindingTransport(this.context, this, handler, timer);
        consents = new ConsentChannel(this.context, handler, timer);
    }

    /**
     * Finds the Mobile-MCP tools on the phone as the Mobile-MCP spec §2 describes: the services that answer
     * {@code mobile.mcp.SERVICE}, their meta-data, and each one's descriptor read with
     * {@code getResourcesForApplication(...).getXml(...)}. A service whose meta-data or descriptor
     * cannot be used is left out, and {@link Discovery#problems} says why. It reads other apps'
     * resources, so call it off the main thread.
     */
    public Discovery discover() {
        PackageManager pm = context.getPackageManager();
        List<Tool> tools = new ArrayList<>();
        List<DiscoveryProblem> problems = new ArrayList<>();
        for (ResolveInfo found : pm.queryIntentServices(new Intent(Wire.ACTION_SERVICE), PackageManager.GET_META_DATA)) {
            ServiceInfo service = found.serviceInfo;
            if (service == null) {
                continue;
            }
            try {
                tools.add(tool(pm, service));
            } catch (Exception e) {
                problems.add(new DiscoveryProblem(service.packageName, service.name,
                        e.getMessage() != null ? e.getMessage() : e.toString()));
            }
        }
        return new Discovery(tools, problems);
    }

    private Tool tool(PackageManager pm, ServiceInfo service) throws Exception {
        if (!service.exported && !service.packageName.equals(context.getPackageName())) {
            throw new IllegalStateException("the service is not exported, so no other app can invoke it");
        }
        Bundle meta = service.metaData;
        if (meta == null) {
            throw new IllegalStateException("the service has no meta-data; it needs " + Wire.META_NAME + ", "
                    + Wire.META_DESCRIPTION + " and " + Wire.META_CAPABILITIES);
        }
        Resources res = pm.getResourcesForApplication(service.applicationInfo);
        String name = text(res, meta, Wire.META_NAME);
        String description = text(res, meta, Wire.META_DESCRIPTION);
        int descriptor = meta.getInt(Wire.META_CAPABILITIES, 0);
        if (descriptor == 0) {
            throw new IllegalStateException("no " + Wire.META_CAPABILITIES + " meta-data naming an XML resource"
                    + " (android:resource=\"@xml/...\")");
        }
        List<Capability> capabilities;
        try (XmlResourceParser xml = res.getXml(descriptor)) {
            capabilities = Descriptors.parse(xml);
        } catch (Resources.NotFoundException e) {
            throw new IllegalStateException(Wire.META_CAPABILITIES + " names resource 0x" + Integer.toHexString(descriptor)
                    + ", which is not an XML resource of the app", e);
        } catch (Descriptors.BadDescriptorException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (Exception e) {
            throw new IllegalStateException("the descriptor cannot be read: " + e.getMessage(), e);
        }
        return new Tool(service.packageName, service.name, HiddenText.line(name), HiddenText.strip(description), capabilities);
    }

    /**
     * A name or description meta-data entry: a string (android:value, which may itself reference a
     * string resource and is resolved by Android) or a string resource id (android:resource).
     */
    private static String text(Resources res, Bundle meta, String key) {
        Object value = meta.get(key);
        if (value instanceof Integer) {
            try {
                return res.getString((Integer) value);
            } catch (Resources.NotFoundException e) {
                throw new IllegalStateException(key + " names resource 0x" + Integer.toHexString((Integer) value)
                        + ", which is not a string", e);
            }
        }
        if (value == null || value.toString().trim().isEmpty()) {
            throw new IllegalStateException("no " + key + " meta-data");
        }
        return value.toString();
    }

    /**
     * A request for capabilityId of tool with args (null for none), under a fresh request id, sent
     * by binding; nothing is sent until {@link Request#send}. Sending it again is a retry that never
     * runs the capability twice.
     *
     * <p>A capability that changes something (its descriptor does not say {@code mcp:readOnly}) is
     * always sent by binding, whatever {@link Request#withMode} says: there the tool learns this app
     * from Android (the Binder uid), while over an Intent it could only take the callback
     * PendingIntent's creator for the caller, and every tool this client calls holds such a
     * PendingIntent, so a tool that passed it on could act in this app's name. A mobilemcp tool
     * refuses such a capability over an Intent with permission_denied.
     */
    public Request request(Tool tool, String capabilityId, @Nullable JSONObject args) {
        return Request.create(this, tool, capabilityId, args);
    }

    /** Sends request, once more if it was sent before; see {@link Request#send()}. */
    CompletableFuture<Reply> send(Request request, long timeoutMillis) {
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("timeoutMillis must be positive, not " + timeoutMillis);
        }
        Tool tool = request.tool();
        String capabilityId = request.capabilityId();
        Call call = new Call(request, request.id() + "#" + attempts.incrementAndGet());
        if (closed) {
            call.fail(new MobileMcpException("the client is closed"));
            return call.future;
        }
        calls.put(call.key, call);
        call.onDone(() -> calls.remove(call.key));
        ScheduledFuture<?> timeout = timer.schedule(() -> call.fail(new CallTimeoutException(request, timeoutMillis)),
                timeoutMillis, TimeUnit.MILLISECONDS);
        call.onDone(() -> timeout.cancel(false));
        String wire = Wire.request(call.id, capabilityId, request.arguments());
        try {
            if (request.mode() == Mode.BINDING || changesState(tool, capabilityId)) {
                bindings.send(tool, call, wire);
            } else if (!intents.send(tool, call, wire)) {
                bindings.send(tool, call, wire); // Android refused the start: this app is in the background
            }
        } catch (MobileMcpException e) {
            call.fail(e);
        }
        return call.future;
    }

    /**
     * Learns the user's decision about this app from tool, whose capabilities that change
     * something answered {@link ErrorCode#CONSENT_REQUIRED}: {@link Consent#ALLOWED} or
     * {@link Consent#DENIED} as soon as the user decides (at once if they have),
     * {@link Consent#DISMISSED} when the user put the question away, {@link Consent#WAITING} when
     * timeoutMillis pass with no answer (ask again later), or {@link Consent#UNKNOWN} when the tool
     * cannot tell (it offers no binding, as a tool on the Mobile-MCP spec alone, or it answered with a
     * word this library does not know). It runs nothing: after ALLOWED, send
     * the refused {@link Request} again. The tool tells only the app it decided about, which it
     * knows by the Binder uid of a binding (docs/security.md). The future completes exceptionally
     * with a {@link MobileMcpException} when the tool cannot be bound or the client is closed.
     * Throws IllegalArgumentException unless timeoutMillis is positive.
     */
    public CompletableFuture<Consent> awaitConsent(Tool tool, long timeoutMillis) {
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("timeoutMillis must be positive, not " + timeoutMillis);
        }
        return consents.await(tool, timeoutMillis);
    }

    /**
     * The tool's question whether this app may use its capabilities that change something, as a
     * PendingIntent that opens it in the tool: send it when the user wants to answer, for example
     * after {@link #awaitConsent} said DISMISSED because they put the notification away. The answer
     * is the user's own tap inside the tool; the PendingIntent opens the question, it decides
     * nothing. From Android 14, send it with {@code ActivityOptions} that allow the background
     * activity start (setPendingIntentBackgroundActivityStartMode) while this app is in the
     * foreground. Fails with a {@link MobileMcpException} from a tool that does not offer it, that
     * cannot be bound, or that does not answer within 10 seconds.
     */
    public CompletableFuture<PendingIntent> consentQuestion(Tool tool) {
        return consents.question(tool, QUESTION_TIMEOUT_MILLIS);
    }

    /** How long {@link #consentQuestion} waits for the tool. */
    static final long QUESTION_TIMEOUT_MILLIS = 10_000;

    /**
     * Whether capabilityId of tool may change something: not declared read-only. An id the tool
     * does not declare goes as asked, and gets unknown_capability.
     */
    static boolean changesState(Tool tool, String capabilityId) {
        Capability c = tool.capability(capabilityId);
        return c != null && c.changesState();
    }

    /** The call waiting under key ({@link Call#key}), or null. */
    @Nullable Call waiting(@Nullable String key) {
        return key == null ? null : calls.get(key);
    }

    /**
     * Hands a reply to call, which the transport knows from the channel the reply came on (the
     * call's own replyTo Messenger, or its own callback PendingIntent), never from the reply. The
     * reply must carry the call's request id, and the call's capability if it names one: a reply
     * that does not is not data but an error naming the tool, and nothing of it is delivered. Only
     * the first reply counts.
     */
    void deliver(Call call, String json) {
        if (call.future.isDone()) {
            // Late (after a timeout or close), or a second reply.
            Log.w(TAG, "dropped a reply from " + call.tool + " to request " + call.id + ", which is no longer waited for");
            return;
        }
        Reply reply;
        try {
            reply = Reply.parse(json);
        } catch (JSONException e) {
            reject(call, "its reply cannot be read: " + e.getMessage());
            return;
        }
        if (reply.id() == null) {
            reject(call, "its reply has no request id, so it is not a reply to request " + call.id
                    + (reply.message() == null ? "" : " (it said: " + reply.message() + ")"));
        } else if (!reply.id().equals(call.id)) {
            reject(call, "it answered request " + call.id + " with a reply to request " + reply.id());
        } else if (reply.capabilityId() != null && !reply.capabilityId().equals(call.capabilityId)) {
            reject(call, "it answered a call of " + call.capabilityId + " with a reply of " + reply.capabilityId());
        } else {
            call.future.complete(reply);
        }
    }

    /** Rejects what call's tool sent instead of a reply, and fails the call. */
    void reject(Call call, String why) {
        Log.w(TAG, call.tool + ": " + why);
        call.fail(new MobileMcpException(call.tool + " sent no valid reply to " + call.capabilityId + ": " + why));
    }

    /**
     * Fails every call still waiting with a MobileMcpException, unbinds from every tool and stops
     * the client's thread. The client cannot be used afterwards.
     */
    @Override
    public void close() {
        closed = true;
        MobileMcpException e = new MobileMcpException("the client was closed");
        for (Call call : new ArrayList<>(calls.values())) {
            call.fail(e);
        }
        bindings.close();
        consents.close();
        intents.close();
        timer.shutdownNow();
        thread.quitSafely();
    }
}

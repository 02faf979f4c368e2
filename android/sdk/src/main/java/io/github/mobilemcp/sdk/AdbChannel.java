package io.github.mobilemcp.sdk;

import android.content.ComponentName;
import android.content.Context;
import android.content.Intent;
import android.content.ServiceConnection;
import android.content.pm.ResolveInfo;
import android.os.Bundle;
import android.os.IBinder;
import android.util.Log;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.RequestLimits;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

/**
 * adb's own way into the tool, for the capabilities that change something: a request sent with
 * {@code adb shell am start-foreground-service} names no caller, and any app can send the same
 * Intent, so such a capability never runs from it. This provider is the channel only the shell has:
 *
 * <pre>adb shell content call --uri content://PACKAGE.mobilemcp.adb --method invoke --arg 'REQUEST_JSON'</pre>
 *
 * returns {@code Result: Bundle[{mobile-mcp-response=REPLY_JSON}]}. {@code mobilemcp adb call} sends
 * every request this way by itself. The caller must hold {@code android.permission.DUMP}
 * (signature|privileged|development: AOSP's Shell package holds it, no app can be granted it) and
 * be the shell's uid (2000) or root; anyone else gets {@code permission_denied}. The shell needs no
 * consent (whoever holds adb controls the phone); it is rate limited, and its requests queue for
 * the workers, within {@link RequestLimits#MAX_IN_FLIGHT_PER_CALLER}, like an app's. The SDK's
 * manifest declares it, exported, under the permission; the provider itself is
 * {@code io.github.mobilemcp.sdk.internal.AdbProvider}, which hands each call here.
 */
final class AdbChannel {
    private AdbChannel() {}

    /** The one method, run the request in {@code arg}: what {@code mobilemcp adb call} sends. */
    static final String METHOD_INVOKE = "invoke";
    /** The uid of adb's shell (android.os.Process.SHELL_UID, hidden in the SDK). */
    static final int SHELL_UID = 2000;
    /** Root's uid, which adb has on builds where adbd runs as root. */
    static final int ROOT_UID = 0;
    /** How long a call waits for the tool service to start, then for its reply. */
    private static final long START_MILLIS = 10_000;
    private static final long REPLY_MILLIS = 3 * 60_000;

    /**
     * Runs a call of the provider: method and arg as {@code content call} gives them, from uid,
     * which holds android.permission.DUMP or not.
     */
    static Bundle call(Context context, String method, @Nullable String arg, int uid, boolean holdsDump) {
        boolean shell = (uid == SHELL_UID || uid == ROOT_UID) && holdsDump;
        ToolRuntime runtime = ToolRuntime.get(context);
        if (!shell) {
            return rejection(runtime, arg, "permission_denied", "this provider runs requests for adb's shell only"
                    + " (uid 2000, holding android.permission.DUMP), not uid " + uid + "; an app binds to the tool's"
                    + " Mobile-MCP service and sends its request as a Message (binding mode)");
        }
        if (!METHOD_INVOKE.equals(method) || arg == null) {
            return rejection(runtime, arg == null ? "" : arg, "invalid_request", "call method " + METHOD_INVOKE
                    + " with the request JSON as its --arg, not method " + method + (arg == null ? " without --arg" : ""));
        }
        ServiceConnection started = startTool(context, runtime);
        try {
            AtomicReference<String> spec = new AtomicReference<>();
            CountDownLatch replied = new CountDownLatch(1);
            // The same admission as every transport's: a rejection is the reply, at once.
            runtime.queueShell(arg, (specJSON, flat, requestId, errorCode) -> {
                spec.set(specJSON);
                replied.countDown();
            });
            if (!replied.await(REPLY_MILLIS, TimeUnit.MILLISECONDS)) {
                return rejection(runtime, arg, "timeout", "the tool gave no reply within " + REPLY_MILLIS / 1000 + " s");
            }
            return reply(spec.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return rejection(runtime, arg, "internal_error", "interrupted while waiting for the reply");
        } finally {
            if (started != null) {
                context.unbindService(started);
            }
        }
    }

    /**
     * Makes sure the tool has started: its handlers are registered by its service, so a process
     * that runs no service yet binds to its own, and waits for it. Returns the binding to end after
     * the call, or null when the tool had started already (or no service could be found, in which
     * case the engine answers that the tool has not started).
     */
    private static @Nullable ServiceConnection startTool(Context context, ToolRuntime runtime) {
        if (runtime.started()) {
            return null;
        }
        List<ResolveInfo> services = context.getPackageManager().queryIntentServices(
                new Intent(Intentbridge.ServiceAction).setPackage(context.getPackageName()), 0);
        if (services.isEmpty()) {
            return null;
        }
        CountDownLatch connected = new CountDownLatch(1);
        ServiceConnection connection = new ServiceConnection() {
            @Override
            public void onServiceConnected(ComponentName name, IBinder binder) {
                connected.countDown();
            }

            @Override
            public void onServiceDisconnected(ComponentName name) {}
        };
        ComponentName service = new ComponentName(context.getPackageName(), services.get(0).serviceInfo.name);
        if (!context.bindService(new Intent(Intentbridge.ServiceAction).setComponent(service), connection, Context.BIND_AUTO_CREATE)) {
            return null;
        }
        try {
            if (!connected.await(START_MILLIS, TimeUnit.MILLISECONDS)) {
                Log.w(McpToolService.LOG_TAG, "the tool service did not start within " + START_MILLIS + " ms for adb's request");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return connection;
    }

    /** The failure reply to request, with its id when it can be read. */
    private static Bundle rejection(ToolRuntime runtime, @Nullable String request, String code, String message) {
        AtomicReference<String> spec = new AtomicReference<>();
        runtime.bridge.reject(request == null ? "" : request, code, message, (specJSON, flat, requestId, errorCode) -> spec.set(specJSON));
        return reply(spec.get());
    }

    private static Bundle reply(@Nullable String specJSON) {
        Bundle result = new Bundle();
        result.putString(Intentbridge.ExtraResponse, specJSON);
        return result;
    }
}

package io.github.mobilemcp.client;

import android.content.ComponentName;
import android.content.Context;
import android.content.Intent;
import android.content.ServiceConnection;
import android.content.pm.PackageManager;
import android.os.Bundle;
import android.os.Handler;
import android.os.IBinder;
import android.os.Looper;
import android.os.Message;
import android.os.Messenger;
import android.os.RemoteException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * Binding mode (the Mobile-MCP spec §3.1, the first way): one binding per tool service, shared by every
 * invocation of that tool. Each request is a Message ({@link Wire#MSG_INVOKE}) whose data holds the
 * request JSON under {@code mobile-mcp-request}; each reply is a Message ({@link Wire#MSG_RESULT})
 * whose data holds {@code mobile-mcp-response}.
 *
 * <p>A reply belongs to its call: every call gets a {@code replyTo} Messenger of its own, handed only
 * to the tool it calls, so a tool cannot answer a call made to another tool (it never holds that
 * call's Messenger). The first reply on it must carry the call's request id (and, if it names one,
 * the call's capability) and come from the tool's uid, which Android sets on every Message a
 * Messenger carries (API 22+);
 * anything else fails the call with a {@link MobileMcpException} naming the tool, and a second reply
 * is dropped.
 *
 * <p>Requests made before the service is connected wait in a queue. A binding with nothing in
 * flight is unbound after {@link #IDLE_MILLIS}. If the tool's process dies, the requests in flight
 * fail with a {@link MobileMcpException}; the binding stays, and Android reconnects it when the
 * service can run again.
 *
 * <p>Threading: ServiceConnection callbacks arrive on the main thread, so a binding connects only
 * while the main thread is free; replies arrive on the client's own thread.
 */
final class BindingTransport {
    /** How long an unused binding is kept. */
    static final long IDLE_MILLIS = 10_000;

    private final Context context;
    private final MobileMcpClient client;
    private final ScheduledExecutorService timer;
    private final Looper looper;
    private final Map<ComponentName, Binding> bindings = new HashMap<>();

    BindingTransport(Context context, MobileMcpClient client, Handler handler, ScheduledExecutorService timer) {
        this.context = context;
        this.client = client;
        this.timer = timer;
        this.looper = handler.getLooper();
    }

    void send(Tool tool, Call call, String request) throws MobileMcpException {
        Message msg = Message.obtain(null, Wire.MSG_INVOKE);
        Bundle data = new Bundle();
        data.putString(Wire.EXTRA_REQUEST, request);
        msg.setData(data);
        int toolUid = uidOf(tool.packageName());
        msg.replyTo = new Messenger(new Handler(looper, reply -> onReply(tool, toolUid, call, reply)));
        binding(new ComponentName(tool.packageName(), tool.serviceName())).send(call, msg);
    }

    /**
     * The uid Android gives packageName, or -1 when it cannot say. A uid of 0 (root's, which no
     * installed app has) also means it does not say; no reply is refused for its uid then.
     */
    private int uidOf(String packageName) {
        try {
            return context.getPackageManager().getApplicationInfo(packageName, 0).uid;
        } catch (PackageManager.NameNotFoundException e) {
            return -1;
        }
    }

    private synchronized Binding binding(ComponentName component) throws MobileMcpException {
        Binding b = bindings.get(component);
        if (b == null) {
            b = new Binding(component);
            boolean bound;
            try {
                bound = context.bindService(new Intent(Wire.ACTION_SERVICE).setComponent(component), b, Context.BIND_AUTO_CREATE);
            } catch (RuntimeException e) {
                throw MobileMcpException.unsent("could not bind to " + component.flattenToShortString() + ": " + e, e);
            }
            if (!bound) {
                context.unbindService(b);
                throw MobileMcpException.unsent("could not bind to " + component.flattenToShortString() + ": no such service, or it refuses binding", null);
            }
            bindings.put(component, b);
        }
        return b;
    }

    private synchronized void forget(Binding b) {
        if (bindings.get(b.component) == b) {
            bindings.remove(b.component);
            try {
                context.unbindService(b);
            } catch (IllegalArgumentException e) {
                // already unbound
            }
        }
    }

    /** A Message on call's own replyTo. */
    private boolean onReply(Tool tool, int toolUid, Call call, Message msg) {
        if (msg.what != Wire.MSG_RESULT) {
            return false;
        }
        int sender = sendingUid(msg);
        if (sender != -1 && toolUid > 0 && sender != toolUid) {
            client.reject(call, "a reply to " + call.capabilityId + " (request " + call.id + ") came from uid " + sender
                    + ", not from " + tool + " (uid " + toolUid + ")");
            return true;
        }
        client.deliver(call, msg.getData().getString(Wire.EXTRA_RESPONSE));
        return true;
    }

    /**
     * Who sent msg, as Binder records it: Android sets Message.sendingUid from API 22, below every
     * level the client runs on (API 24+).
     */
    static int sendingUid(Message msg) {
        return msg.sendingUid;
    }

    /** Unbinds every tool and fails what waits in their queues. */
    void close() {
        List<Binding> all;
        synchronized (this) {
            all = new ArrayList<>(bindings.values());
        }
        for (Binding b : all) {
            b.fail(new MobileMcpException("the client was closed"));
            forget(b);
        }
    }

    /** The binding of one tool service. */
    private final class Binding implements ServiceConnection {
        final ComponentName component;
        private @Nullable Messenger service;
        /** Requests waiting for the connection, in order. */
        private final Map<Call, Message> queued = new LinkedHashMap<>();
        private final List<Call> inFlight = new ArrayList<>();
        private @Nullable ScheduledFuture<?> idle;

        Binding(ComponentName component) {
            this.component = component;
        }

        synchronized void send(Call call, Message msg) {
            if (idle != null) {
                idle.cancel(false);
                idle = null;
            }
            inFlight.add(call);
            call.onDone(() -> done(call));
            if (service == null) {
                queued.put(call, msg);
            } else {
                transmit(call, msg);
            }
        }

        private void transmit(Call call, Message msg) {
            try {
                service.send(msg);
            } catch (RemoteException | RuntimeException e) {
                call.fail(new MobileMcpException("could not send to " + component.flattenToShortString() + ": " + e, e));
            }
        }

        private synchronized void done(Call call) {
            inFlight.remove(call);
            queued.remove(call);
            if (inFlight.isEmpty() && idle == null) {
                try {
                    idle = timer.schedule(this::unbindIfIdle, IDLE_MILLIS, TimeUnit.MILLISECONDS);
                } catch (RejectedExecutionException e) {
                    // The client is closed, and close() unbinds.
                }
            }
        }

        private void unbindIfIdle() {
            synchronized (this) {
                if (!inFlight.isEmpty()) {
                    return;
                }
            }
            forget(this);
        }

        @Override
        public void onServiceConnected(ComponentName name, IBinder binder) {
            List<Map.Entry<Call, Message>> waiting;
            synchronized (this) {
                service = new Messenger(binder);
                waiting = new ArrayList<>(queued.entrySet());
                queued.clear();
            }
            for (Map.Entry<Call, Message> e : waiting) {
                transmit(e.getKey(), e.getValue());
            }
        }

        @Override
        public void onServiceDisconnected(ComponentName name) {
            synchronized (this) {
                service = null;
            }
            fail(new MobileMcpException(component.flattenToShortString() + " stopped (its process died) before replying"));
        }

        @Override
        public void onBindingDied(ComponentName name) {
            fail(new MobileMcpException("the binding to " + component.flattenToShortString() + " died"));
            forget(this);
        }

        @Override
        public void onNullBinding(ComponentName name) {
            fail(MobileMcpException.unsent(component.flattenToShortString() + " does not offer binding mode", null));
            forget(this);
        }

        /** Fails every request in flight or waiting. */
        void fail(MobileMcpException e) {
            List<Call> calls;
            synchronized (this) {
                calls = new ArrayList<>(inFlight);
            }
            for (Call call : calls) {
                call.fail(e);
            }
        }
    }
}

package io.github.mobilemcp.client;

import io.github.mobilemcp.Consent;

import android.app.PendingIntent;
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
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * The consent messages of a mobilemcp tool's binding ({@link Wire#MSG_AWAIT_CONSENT},
 * {@link Wire#MSG_CONSENT_QUESTION}): each exchange binds to the tool on its own, sends one Message
 * with a replyTo of its own, takes the one {@link Wire#MSG_CONSENT} that comes back on it from the
 * tool's uid (where Android says who sent it, API 29+), and unbinds. The tool knows this app by the
 * Binder uid of the Message, so it tells this app only of its own decision.
 *
 * <p>Threading: the connection arrives on the main thread, so an exchange starts only while the
 * main thread is free; the answer arrives on the client's own thread.
 */
final class ConsentChannel {
    private final Context context;
    private final Looper looper;
    private final ScheduledExecutorService timer;
    private final Set<Exchange> open = ConcurrentHashMap.newKeySet();

    ConsentChannel(Context context, Handler handler, ScheduledExecutorService timer) {
        this.context = context;
        this.looper = handler.getLooper();
        this.timer = timer;
    }

    /** The user's decision about this app, as {@link MobileMcpClient#awaitConsent} says. */
    CompletableFuture<Consent> await(Tool tool, long timeoutMillis) {
        CompletableFuture<Consent> answer = new CompletableFuture<>();
        Exchange exchange = new Exchange(tool, Wire.MSG_AWAIT_CONSENT, answer, data -> answer.complete(consent(data.getString(Wire.EXTRA_CONSENT))));
        // A tool without a binding (one that follows the Mobile-MCP spec alone) has no consent to tell.
        exchange.onNoBinding = () -> answer.complete(Consent.UNKNOWN);
        exchange.start(timeoutMillis, () -> answer.complete(Consent.WAITING));
        return answer;
    }

    /** The tool's question about this app, as {@link MobileMcpClient#consentQuestion} says. */
    CompletableFuture<PendingIntent> question(Tool tool, long timeoutMillis) {
        CompletableFuture<PendingIntent> answer = new CompletableFuture<>();
        new Exchange(tool, Wire.MSG_CONSENT_QUESTION, answer, data -> {
            PendingIntent question = pendingIntent(data);
            if (question == null || !tool.packageName().equals(question.getCreatorPackage())) {
                answer.completeExceptionally(new MobileMcpException(tool + " sent no consent question of its own"));
            } else {
                answer.complete(question);
            }
        }).start(timeoutMillis, () -> answer.completeExceptionally(new MobileMcpException(tool
                + " did not answer for its consent question within " + timeoutMillis + " ms; it may not be a mobilemcp tool")));
        return answer;
    }

    @SuppressWarnings("deprecation") // the typed getParcelable is API 33+, and unreliable there
    private static @Nullable PendingIntent pendingIntent(Bundle data) {
        Object question = data.getParcelable(Wire.EXTRA_CONSENT_QUESTION);
        return question instanceof PendingIntent ? (PendingIntent) question : null;
    }

    static Consent consent(@Nullable String state) {
        return Consent.of(state); // UNKNOWN for something this library does not know
    }

    /** Ends every exchange: the client is closed. */
    void close() {
        List<Exchange> all = new ArrayList<>(open);
        for (Exchange e : all) {
            e.future.completeExceptionally(new MobileMcpException("the client was closed"));
        }
    }

    /** One Message to the tool and its one answer, over a binding of its own. */
    private final class Exchange implements ServiceConnection {
        final Tool tool;
        final int what;
        final CompletableFuture<?> future;
        final Consumer<Bundle> onAnswer;
        /** What a tool that offers no binding gets, when that is an answer rather than a failure. */
        @Nullable Runnable onNoBinding;
        private boolean bound;

        Exchange(Tool tool, int what, CompletableFuture<?> future, Consumer<Bundle> onAnswer) {
            this.tool = tool;
            this.what = what;
            this.future = future;
            this.onAnswer = onAnswer;
        }

        void start(long timeoutMillis, Runnable onTimeout) {
            ComponentName component = new ComponentName(tool.packageName(), tool.serviceName());
            open.add(this);
            future.whenComplete((v, e) -> finish());
            try {
                ScheduledFuture<?> timeout = timer.schedule(onTimeout, timeoutMillis, TimeUnit.MILLISECONDS);
                future.whenComplete((v, e) -> timeout.cancel(false));
            } catch (RejectedExecutionException e) {
                future.completeExceptionally(new MobileMcpException("the client is closed"));
                return;
            }
            try {
                bound = context.bindService(new Intent(Wire.ACTION_SERVICE).setComponent(component), this, Context.BIND_AUTO_CREATE);
            } catch (RuntimeException e) {
                future.completeExceptionally(MobileMcpException.unsent("could not bind to " + tool + ": " + e, e));
                return;
            }
            if (!bound) {
                future.completeExceptionally(MobileMcpException.unsent("could not bind to " + tool + ": no such service, or it refuses binding", null));
            }
        }

        private synchronized void finish() {
            open.remove(this);
            if (bound) {
                bound = false;
                try {
                    context.unbindService(this);
                } catch (IllegalArgumentException e) {
                    // already unbound
                }
            }
        }

        @Override
        public void onServiceConnected(ComponentName name, IBinder binder) {
            if (future.isDone()) {
                return;
            }
            int toolUid = uidOf(tool.packageName());
            Message msg = Message.obtain(null, what);
            msg.replyTo = new Messenger(new Handler(looper, answer -> {
                int sender = BindingTransport.sendingUid(answer);
                if (answer.what != Wire.MSG_CONSENT || (sender != -1 && toolUid > 0 && sender != toolUid)) {
                    return true; // not the tool's answer: the exchange waits on
                }
                onAnswer.accept(answer.getData());
                return true;
            }));
            try {
                new Messenger(binder).send(msg);
            } catch (RemoteException | RuntimeException e) {
                future.completeExceptionally(new MobileMcpException("could not send to " + tool + ": " + e, e));
            }
        }

        @Override
        public void onServiceDisconnected(ComponentName name) {
            future.completeExceptionally(new MobileMcpException(tool + " stopped (its process died) before answering"));
        }

        @Override
        public void onNullBinding(ComponentName name) {
            if (onNoBinding != null) {
                onNoBinding.run();
                return;
            }
            future.completeExceptionally(MobileMcpException.unsent(tool + " does not offer binding mode", null));
        }

        private int uidOf(String packageName) {
            try {
                return context.getPackageManager().getApplicationInfo(packageName, 0).uid;
            } catch (PackageManager.NameNotFoundException e) {
                return -1;
            }
        }
    }
}

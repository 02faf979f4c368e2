package io.github.mobilemcp.client;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * One invocation in flight: its request id, the capability and tool it calls, and its future. Cleanups registered with
 * {@link #onDone} run once, on whichever thread completes the future (a reply, the timeout,
 * close, or the caller's cancel).
 */
final class Call {
    /** The request id. */
    final String id;
    /** This sending of the request, unique in the client: a request sent again has the same id and another key. */
    final String key;
    final String capabilityId;
    /** The tool called, as replies and errors name it. */
    final String tool;
    /** The request this is a sending of, which a failure names. */
    final Request request;
    final CompletableFuture<Reply> future = new CompletableFuture<>();
    private final List<Runnable> cleanups = new ArrayList<>();
    private boolean done;

    Call(Request request, String key) {
        this.request = request;
        this.id = request.id();
        this.key = key;
        this.capabilityId = request.capabilityId();
        this.tool = request.tool().toString();
        future.whenComplete((reply, error) -> finish());
    }

    /** Fails the call with e, as this call's failure ({@link MobileMcpException#request()}). */
    void fail(MobileMcpException e) {
        future.completeExceptionally(e.request() == request ? e : e.of(request));
    }

    /** Runs cleanup when the call completes, or at once if it has. */
    void onDone(Runnable cleanup) {
        synchronized (this) {
            if (!done) {
                cleanups.add(cleanup);
                return;
            }
        }
        cleanup.run();
    }

    private void finish() {
        List<Runnable> run;
        synchronized (this) {
            done = true;
            run = new ArrayList<>(cleanups);
            cleanups.clear();
        }
        for (Runnable cleanup : run) {
            cleanup.run();
        }
    }
}

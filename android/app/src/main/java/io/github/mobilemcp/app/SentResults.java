package io.github.mobilemcp.app;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The sent results of one multipart SMS. The receiver thread records them; the worker thread waits
 * for all of them, up to a timeout, and then reads them.
 */
final class SentResults {
    /** The code of a part whose sent result has not arrived (Go's PartNoResult). */
    static final int NO_RESULT = 0;

    private final int[] codes;
    private final boolean[] seen;
    private final CountDownLatch pending;

    SentResults(int parts) {
        codes = new int[parts]; // all NO_RESULT
        seen = new boolean[parts];
        pending = new CountDownLatch(parts);
    }

    /** Records part's result code. An unknown part, or a second result for a part, is ignored. */
    synchronized void record(int part, int resultCode) {
        if (part < 0 || part >= codes.length || seen[part]) {
            return;
        }
        seen[part] = true;
        codes[part] = resultCode;
        pending.countDown();
    }

    /** Waits until every part has a result or timeoutMillis have passed. */
    void await(long timeoutMillis) throws InterruptedException {
        pending.await(Math.max(0, timeoutMillis), TimeUnit.MILLISECONDS);
    }

    /** A copy of the codes so far: one per part, NO_RESULT where none arrived. */
    synchronized int[] codes() {
        return codes.clone();
    }
}

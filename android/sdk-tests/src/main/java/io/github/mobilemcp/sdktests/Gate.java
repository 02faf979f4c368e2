package io.github.mobilemcp.sdktests;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Where the hold capability waits: closed, each call waits inside until the gate opens, so that a
 * test decides when a handler finishes and sees which handlers run meanwhile. A call waits a minute
 * at most, so that no worker outlives its test by long.
 */
final class Gate {
    private static CountDownLatch open = new CountDownLatch(0);
    private static final List<String> inside = new ArrayList<>();

    private Gate() {}

    /** Makes every hold call from now on wait. */
    static synchronized void close() {
        if (open.getCount() == 0) {
            open = new CountDownLatch(1);
        }
    }

    /** Lets every waiting call, and every later one, finish. */
    static synchronized void open() {
        open.countDown();
    }

    /** The names of the hold calls waiting now, in arrival order. */
    static synchronized List<String> inside() {
        return new ArrayList<>(inside);
    }

    /** Waits, as the call name, until the gate opens. */
    static void pass(String name) throws InterruptedException {
        CountDownLatch latch;
        synchronized (Gate.class) {
            latch = open;
            inside.add(name);
        }
        try {
            latch.await(60, TimeUnit.SECONDS);
        } finally {
            synchronized (Gate.class) {
                inside.remove(name);
            }
        }
    }
}

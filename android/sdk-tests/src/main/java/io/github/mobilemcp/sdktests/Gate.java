package io.github.mobilemcp.sdktests;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Where the hold capability waits: closed, each call waits inside until the gate opens, so that a
 * test decides when a handler finishes and sees which handlers run meanwhile. A call waits a minute
 * at most, so that no worker outlives its test by long. A benchmark may instead give every call a
 * fixed time inside ({@link #workFor}), as a handler that does real work takes.
 */
final class Gate {
    private static CountDownLatch open = new CountDownLatch(0);
    private static final List<String> inside = new ArrayList<>();
    private static final List<String> arrived = new ArrayList<>();
    private static long workMillis;

    private Gate() {}

    /** Makes every hold call from now on wait, and forgets the calls that came before. */
    static synchronized void close() {
        if (open.getCount() == 0) {
            open = new CountDownLatch(1);
        }
        arrived.clear();
        workMillis = 0;
    }

    /** Lets every waiting call, and every later one, finish. */
    static synchronized void open() {
        open.countDown();
    }

    /** Makes every hold call from now on spend millis inside, whether the gate is open or not. */
    static synchronized void workFor(long millis) {
        workMillis = millis;
    }

    /** The names of the hold calls waiting now, in arrival order. */
    static synchronized List<String> inside() {
        return new ArrayList<>(inside);
    }

    /** The names of every hold call that came to the gate since it was closed, in arrival order. */
    static synchronized List<String> arrived() {
        return new ArrayList<>(arrived);
    }

    /** Waits, as the call name, until the gate opens. */
    static void pass(String name) throws InterruptedException {
        CountDownLatch latch;
        long work;
        synchronized (Gate.class) {
            latch = open;
            work = workMillis;
            inside.add(name);
            arrived.add(name);
        }
        try {
            if (work > 0) {
                Thread.sleep(work);
            } else {
                latch.await(60, TimeUnit.SECONDS);
            }
        } finally {
            synchronized (Gate.class) {
                inside.remove(name);
            }
        }
    }
}

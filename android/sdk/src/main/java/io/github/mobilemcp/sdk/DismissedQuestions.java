package io.github.mobilemcp.sdk;

import java.util.HashMap;
import java.util.Map;

/**
 * Keeps a dismissed consent question away for a while: a calling app that keeps retrying must not
 * bring it straight back at high importance. After the first dismissal the question waits
 * {@link #FIRST_WAIT_MILLIS} before it is posted again for that app, and each further dismissal
 * doubles the wait, up to {@link #MAX_WAIT_MILLIS}. A decision ends it. In memory: a restart of the
 * tool's process may ask once more.
 */
final class DismissedQuestions {
    static final long FIRST_WAIT_MILLIS = 60_000;
    static final long MAX_WAIT_MILLIS = 60 * 60_000;

    private final Map<String, long[]> byCaller = new HashMap<>(); // {dismissals, until}

    /** Records that the user dismissed the question about callerPackage at nowMillis (SystemClock.elapsedRealtime(): a change of the wall clock does not end the wait). */
    synchronized void dismissed(String callerPackage, long nowMillis) {
        long[] d = byCaller.computeIfAbsent(callerPackage, k -> new long[2]);
        d[0]++;
        long wait = FIRST_WAIT_MILLIS << Math.min(d[0] - 1, 6);
        d[1] = nowMillis + Math.min(wait, MAX_WAIT_MILLIS);
    }

    /** Whether the question about callerPackage may be posted at nowMillis. */
    synchronized boolean mayAsk(String callerPackage, long nowMillis) {
        long[] d = byCaller.get(callerPackage);
        return d == null || nowMillis >= d[1];
    }

    /** Forgets the dismissals of callerPackage, once the user decided. */
    synchronized void decided(String callerPackage) {
        byCaller.remove(callerPackage);
    }
}

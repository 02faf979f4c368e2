package io.github.mobilemcp.sdk;

import android.app.PendingIntent;
import android.content.Context;
import android.os.Bundle;
import android.os.Message;
import android.os.Messenger;
import android.os.RemoteException;
import android.util.Log;

import io.github.mobilemcp.Consent;
import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.sdk.internal.BindingMessages;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Tells a calling app the user's decision about it, over its binding: the answer to
 * {@link BindingMessages#MSG_AWAIT_CONSENT} when the user decides or puts the question away (at once
 * when they have decided), and to {@link BindingMessages#MSG_CONSENT_QUESTION} the PendingIntent
 * that opens the question ({@link io.github.mobilemcp.sdk.internal.ConsentConfirmActivity}) about that app.
 *
 * <p>The app is the package of the Message's Binder uid ({@link BindingHandler#callerOf}), so an
 * app learns only the decision about itself, and the question it can open is the one about itself.
 * Opening it decides nothing: only the user's tap on its touch-filtered buttons does.
 *
 * <p>At most {@link #MAX_WAITING_PER_CALLER} Messages of one app wait; one more answers the oldest
 * with "waiting". An app that is gone when the user decides misses the answer (logged); when it
 * comes back and asks again, the decision is there.
 */
final class ConsentWatch {
    /** How many MSG_AWAIT_CONSENT of one calling app wait at once. */
    static final int MAX_WAITING_PER_CALLER = 16;

    // The words of a MSG_CONSENT, as the client's Consent reads them: the engine keeps only the
    // first two (Intentbridge.ConsentAllowed and ConsentDenied); the other two are the SDK's.
    static final String ALLOWED = Consent.ALLOWED.wireName();
    static final String DENIED = Consent.DENIED.wireName();
    static final String DISMISSED = Consent.DISMISSED.wireName();
    static final String WAITING = Consent.WAITING.wireName();

    private final Context app;
    private final Bridge bridge;
    private final Map<String, List<Waiter>> waiting = new HashMap<>();

    ConsentWatch(Context app, Bridge bridge) {
        this.app = app;
        this.bridge = bridge;
    }

    /** callerPackage waits for the user's decision about it; replyTo hears it (arg1 is echoed). */
    void await(String callerPackage, Messenger replyTo, int arg1) {
        String decision = bridge.callerConsent(callerPackage);
        if (!decision.isEmpty()) {
            answer(new Waiter(replyTo, arg1), callerPackage, decision, null);
            return;
        }
        Waiter oldest = null;
        synchronized (this) {
            List<Waiter> list = waiting.computeIfAbsent(callerPackage, k -> new ArrayList<>());
            if (list.size() >= MAX_WAITING_PER_CALLER) {
                oldest = list.remove(0);
            }
            list.add(new Waiter(replyTo, arg1));
        }
        Log.i(McpToolService.LOG_TAG, callerPackage + " waits for the user's decision about it");
        if (oldest != null) {
            answer(oldest, callerPackage, WAITING, null);
        }
        // The user may have decided between the look and the wait.
        decision = bridge.callerConsent(callerPackage);
        if (!decision.isEmpty()) {
            tell(callerPackage, decision);
        }
    }

    /** Answers replyTo with the question about callerPackage, and the decision as it stands. */
    void question(String callerPackage, Messenger replyTo, int arg1) {
        String decision = bridge.callerConsent(callerPackage);
        answer(new Waiter(replyTo, arg1), callerPackage, decision.isEmpty() ? WAITING : decision,
                ConsentPrompt.confirmation(app, callerPackage));
    }

    /** The user decided about callerPackage. */
    void decided(String callerPackage, boolean allow) {
        tell(callerPackage, allow ? ALLOWED : DENIED);
    }

    /** The user put the question about callerPackage away without deciding. */
    void dismissed(String callerPackage) {
        tell(callerPackage, DISMISSED);
    }

    private void tell(String callerPackage, String state) {
        List<Waiter> list;
        synchronized (this) {
            list = waiting.remove(callerPackage);
        }
        if (list != null) {
            for (Waiter w : list) {
                answer(w, callerPackage, state, null);
            }
        }
    }

    private static void answer(Waiter to, String callerPackage, String state, @Nullable PendingIntent question) {
        Message out = Message.obtain(null, BindingMessages.MSG_CONSENT, to.arg1, 0);
        Bundle data = new Bundle();
        data.putString(BindingMessages.EXTRA_CONSENT, state);
        if (question != null) {
            data.putParcelable(BindingMessages.EXTRA_CONSENT_QUESTION, question);
        }
        out.setData(data);
        try {
            to.replyTo.send(out);
        } catch (RemoteException | RuntimeException e) {
            // DeadObjectException: the app stopped or unbound; it asks again when it comes back.
            Log.w(McpToolService.LOG_TAG, "could not tell " + callerPackage + " of the user's decision (" + state + "): it is gone");
        }
    }

    private static final class Waiter {
        final Messenger replyTo;
        final int arg1;

        Waiter(Messenger replyTo, int arg1) {
            this.replyTo = replyTo;
            this.arg1 = arg1;
        }
    }
}

package io.github.mobilemcp.sdk;

import android.content.Context;

import io.github.mobilemcp.Consent;
import io.github.mobilemcp.intentbridge.Intentbridge;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

import java.text.ParseException;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;

/**
 * Your app's Mobile-MCP tool as the rest of the app sees it: the calling apps the user decided about,
 * and the developer switch. {@link ToolSettingsActivity} shows both; use this class to build a
 * screen of your own.
 *
 * <p>The methods that change a decision write a file and wait for it to reach the disk: call them
 * off the main thread.
 */
public final class ToolSettings {
    private final ToolRuntime runtime;

    private ToolSettings(ToolRuntime runtime) {
        this.runtime = runtime;
    }

    /** The tool of context's app. */
    public static ToolSettings get(Context context) {
        return new ToolSettings(ToolRuntime.get(context));
    }

    /**
     * One calling app and the user's consent for it: {@link Consent#ALLOWED} (it may run the
     * capabilities that change something), {@link Consent#DENIED} (it may not; its calls get
     * permission_denied, and the user is not asked again) or {@link Consent#WAITING} (it asked
     * since the app started, and the user has not answered yet), the words the client library and
     * the wire use too.
     */
    public static final class Caller {
        private final String packageName;
        private final Consent consent;
        private final long decidedAtMillis;

        Caller(String packageName, Consent consent, long decidedAtMillis) {
            this.packageName = packageName;
            this.consent = consent;
            this.decidedAtMillis = decidedAtMillis;
        }

        /** The calling app's package. */
        public String getPackageName() {
            return packageName;
        }

        /** The user's consent: ALLOWED, DENIED or WAITING. */
        public Consent getConsent() {
            return consent;
        }

        /** When the user decided (milliseconds since the epoch), or 0 while WAITING. */
        public long getDecidedAtMillis() {
            return decidedAtMillis;
        }

        @Override
        public String toString() {
            return packageName + ": " + consent;
        }
    }

    /**
     * The apps waiting for an answer, then those decided about, each group sorted by package; an
     * unmodifiable snapshot. Any thread. Throws IllegalStateException when the engine's list cannot
     * be read.
     */
    public List<Caller> getCallers() {
        List<Caller> decided = new ArrayList<>();
        List<String> known = new ArrayList<>();
        try {
            JSONArray list = new JSONArray(runtime.bridge.callersJSON());
            for (int i = 0; i < list.length(); i++) {
                JSONObject grant = list.getJSONObject(i);
                String pkg = grant.getString("package");
                boolean allowed = Intentbridge.ConsentAllowed.equals(grant.getString("decision"));
                decided.add(new Caller(pkg, allowed ? Consent.ALLOWED : Consent.DENIED,
                        utcMillis(grant.getString("at"))));
                known.add(pkg);
            }
        } catch (JSONException | ParseException | RuntimeException e) {
            throw new IllegalStateException("the engine listed the decisions unreadably", e);
        }
        List<Caller> callers = new ArrayList<>();
        for (String pkg : runtime.asking()) {
            if (!known.contains(pkg)) {
                callers.add(new Caller(pkg, Consent.WAITING, 0));
            }
        }
        callers.addAll(decided);
        return Collections.unmodifiableList(callers);
    }

    /**
     * The milliseconds since the epoch of an RFC 3339 time in UTC as Go writes it, such as
     * "2026-11-21T10:00:00Z" or "2026-11-21T10:00:00.123456789Z". java.time would do this in one
     * call, but it needs API 26, and the SDK runs from API 24.
     */
    static long utcMillis(String rfc3339) throws ParseException {
        int end = rfc3339.length() - 1;
        if (rfc3339.length() < 20 || rfc3339.charAt(end) != 'Z') {
            throw new ParseException("not an RFC 3339 time in UTC: " + rfc3339, 0);
        }
        SimpleDateFormat seconds = new SimpleDateFormat("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT);
        seconds.setTimeZone(TimeZone.getTimeZone("UTC"));
        seconds.setLenient(false);
        long millis = seconds.parse(rfc3339.substring(0, 19)).getTime();
        if (end > 19) {
            String fraction = rfc3339.substring(20, end);
            if (rfc3339.charAt(19) != '.' || fraction.isEmpty() || !fraction.matches("[0-9]+")) {
                throw new ParseException("not an RFC 3339 time in UTC: " + rfc3339, 19);
            }
            millis += Integer.parseInt((fraction + "00").substring(0, 3));
        }
        return millis;
    }

    /**
     * Allows callerPackage to run the capabilities that change something, as the user's Allow does.
     * Not on the main thread. Throws IllegalStateException when the decision cannot be recorded.
     */
    public void allow(String callerPackage) {
        decide(callerPackage, true);
    }

    /**
     * Refuses callerPackage, as the user's Deny does: its calls of the capabilities that change
     * something get permission_denied. Not on the main thread. Throws IllegalStateException when
     * the decision cannot be recorded.
     */
    public void deny(String callerPackage) {
        decide(callerPackage, false);
    }

    /**
     * Forgets the decision about callerPackage, as the user's Revoke does: its next call of a
     * capability that changes something asks the user again. Not on the main thread. Throws
     * IllegalStateException when the decision cannot be forgotten.
     */
    public void forget(String callerPackage) {
        try {
            runtime.forget(callerPackage);
        } catch (Exception e) {
            throw new IllegalStateException("could not forget the decision about " + callerPackage + ": " + e.getMessage(), e);
        }
    }

    private void decide(String callerPackage, boolean allow) {
        try {
            runtime.decide(callerPackage, allow);
        } catch (Exception e) {
            throw new IllegalStateException("could not record the decision about " + callerPackage + ": " + e.getMessage(), e);
        }
    }

    /**
     * Whether requests without a callback run: in a debuggable build always, in a release build
     * only with the developer switch on. adb sends such requests. For {@link ToolSettingsView}.
     */
    boolean acceptsRequestsWithoutCallback() {
        return runtime.isDebuggable() || runtime.developerSwitch();
    }

    /**
     * Whether the developer switch is on (it has no effect in a debuggable build). In Kotlin, with
     * {@link #setDeveloperSwitchOn}, the property {@code isDeveloperSwitchOn}.
     */
    public boolean isDeveloperSwitchOn() {
        return runtime.developerSwitch();
    }

    /**
     * Turns the developer switch on or off, and keeps the setting across restarts: on, a release
     * build runs requests without a callback, which adb's {@code am} sends, for the read-only
     * capabilities (one that changes something never runs from a sender nobody names). Android
     * cannot tell adb from an app, so any app could then run those without the user's consent: it
     * is for testing only.
     */
    public void setDeveloperSwitchOn(boolean on) {
        runtime.setDeveloperSwitch(on);
    }

    /**
     * Whether the app is a debuggable build ({@code android:debuggable}), which accepts requests
     * without a callback. For {@link ToolSettingsView}.
     */
    boolean isDebuggable() {
        return runtime.isDebuggable();
    }

}

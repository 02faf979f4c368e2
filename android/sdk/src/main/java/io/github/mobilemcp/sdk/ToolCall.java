package io.github.mobilemcp.sdk;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;
import org.jspecify.annotations.Nullable;

/**
 * One call of a capability, as its handler sees it: the validated arguments, with typed getters,
 * and who is calling.
 *
 * <p>The engine has checked the arguments against your descriptor, so an argument the descriptor
 * declares {@code required="true"} is always there with its declared type:
 * {@code getString("title")} for a string, {@code getLong} for an integer, {@code getDouble} for a
 * number, {@code getBoolean}, {@code getObject} and {@code getArray}. An optional argument may be
 * missing: read it with the overload that takes a default, or ask {@link #has} first. A getter
 * without a default throws an {@link IllegalArgumentException} that names the argument when it was
 * not given or has another type; the SDK answers that, like any exception of a handler, with
 * {@code internal_error}.
 *
 * <p>A ToolCall belongs to the one handler or {@link ArgumentCheck} run it is given to.
 */
public final class ToolCall {
    private final String capabilityId;
    private final String requestId;
    private final String callerPackage;
    private final @Nullable CallerSigners signers; // null where there is no caller (argument checks)
    private @Nullable String callerSigner; // looked up on first use
    private final long deadline; // System.nanoTime()
    private final JSONObject args;

    /**
     * The package {@link #getCallerPackage} names for adb's shell: Android's Shell app, whose uid
     * (2000) the shell runs as.
     */
    public static final String SHELL_PACKAGE = "com.android.shell";

    ToolCall(String capabilityId, String requestId, String callerPackage, @Nullable CallerSigners signers, long timeoutMillis, JSONObject args) {
        this.capabilityId = capabilityId;
        this.requestId = requestId;
        this.callerPackage = callerPackage;
        this.signers = signers;
        this.deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        this.args = args;
    }

    /** The capability being called, as the descriptor names it. */
    public String getCapabilityId() {
        return capabilityId;
    }

    /** The request's id, chosen by the agent; "" when it sent none. */
    public String getRequestId() {
        return requestId;
    }

    /**
     * The calling app's package, as Android vouches for it: the app that bound to your tool and sent
     * the request as a Message, or {@link #SHELL_PACKAGE} for adb's shell. It is "" where Android
     * vouches for no caller: an Intent's request names only the app that created its callback, and
     * any app that was handed that callback can send it, so a handler must not keep data in that
     * app's name. The user has allowed this app if the capability is not read-only. Two apps that
     * share a user id are named "sharedUserId:UID".
     */
    public String getCallerPackage() {
        return callerPackage;
    }

    /**
     * The SHA-256 of the calling app's signing certificate, as 64 lowercase hex digits (several,
     * comma-separated, for an app signed by more than one), as the PackageManager reports it; with
     * {@link #getCallerPackage} it tells apart two apps that took the same package name one after
     * the other. It is "" where {@link #getCallerPackage} is, or when the PackageManager does not
     * know the package.
     */
    public String getCallerSigningSha256() {
        if (callerSigner == null) {
            String signer = "";
            if (!callerPackage.isEmpty() && signers != null) {
                try {
                    signer = signers.signingCertificateSHA256(callerPackage);
                } catch (Exception | LinkageError e) {
                    signer = ""; // not installed, or no certificate: nothing Android vouches for
                }
            }
            callerSigner = signer;
        }
        return callerSigner;
    }

    /**
     * How long the handler has left before the caller is answered with a timeout, rounded up to a
     * whole millisecond: 0 only once the deadline has passed, so a handler that waits this long
     * never gives up before it.
     */
    public long getRemainingMillis() {
        long left = deadline - System.nanoTime();
        return left <= 0 ? 0 : (left + 999_999) / 1_000_000;
    }

    /** Whether the caller gave the argument name. */
    public boolean has(String name) {
        return args.has(name);
    }

    /** A string argument; IllegalArgumentException when it was not given or is not a string. */
    public String getString(String name) {
        return (String) get(name, String.class);
    }

    /**
     * A string argument, or fallback when it was not given. The result is of fallback's type: in
     * Kotlin, {@code getString("body", "")} is a {@code String} and {@code getString("body", null)}
     * a {@code String?}.
     */
    @SuppressWarnings("unchecked") // S is String or, with a null fallback, @Nullable String
    public <S extends @Nullable String> S getString(String name, S fallback) {
        return has(name) ? (S) getString(name) : fallback;
    }

    /** An integer argument; IllegalArgumentException when it was not given or is not a number. */
    public long getLong(String name) {
        return ((Number) get(name, Number.class)).longValue();
    }

    /** An integer argument, or fallback when it was not given. */
    public long getLong(String name, long fallback) {
        return has(name) ? getLong(name) : fallback;
    }

    /** A number argument; IllegalArgumentException when it was not given or is not a number. */
    public double getDouble(String name) {
        return ((Number) get(name, Number.class)).doubleValue();
    }

    /** A number argument, or fallback when it was not given. */
    public double getDouble(String name, double fallback) {
        return has(name) ? getDouble(name) : fallback;
    }

    /** A boolean argument; IllegalArgumentException when it was not given or is not true or false. */
    public boolean getBoolean(String name) {
        return (Boolean) get(name, Boolean.class);
    }

    /** A boolean argument, or fallback when it was not given. */
    public boolean getBoolean(String name, boolean fallback) {
        return has(name) ? getBoolean(name) : fallback;
    }

    /** An object argument; IllegalArgumentException when it was not given or is not an object. */
    public JSONObject getObject(String name) {
        return (JSONObject) get(name, JSONObject.class);
    }

    /**
     * An object argument, or fallback when it was not given. The result is of fallback's type: in
     * Kotlin, {@code getObject("options", JSONObject())} is a {@code JSONObject} and
     * {@code getObject("options", null)} a {@code JSONObject?}.
     */
    @SuppressWarnings("unchecked") // O is JSONObject or, with a null fallback, @Nullable JSONObject
    public <O extends @Nullable JSONObject> O getObject(String name, O fallback) {
        return has(name) ? (O) getObject(name) : fallback;
    }

    /** An array argument; IllegalArgumentException when it was not given or is not an array. */
    public JSONArray getArray(String name) {
        return (JSONArray) get(name, JSONArray.class);
    }

    /** An array argument, or fallback when it was not given, typed as {@link #getObject(String, JSONObject)} is. */
    @SuppressWarnings("unchecked") // A is JSONArray or, with a null fallback, @Nullable JSONArray
    public <A extends @Nullable JSONArray> A getArray(String name, A fallback) {
        return has(name) ? (A) getArray(name) : fallback;
    }

    /** All the arguments given, as one JSON object (a copy). */
    public JSONObject getArguments() {
        try {
            return new JSONObject(args.toString());
        } catch (JSONException e) {
            throw new IllegalStateException(e); // it was valid JSON a moment ago
        }
    }

    private Object get(String name, Class<?> type) {
        Object value = args.opt(name);
        if (value == null) {
            throw new IllegalArgumentException(capabilityId + " was called without the argument " + name
                    + "; it is optional in the descriptor, so read it with a default or check has(\"" + name + "\")");
        }
        if (!type.isInstance(value)) {
            throw new IllegalArgumentException("the argument " + name + " of " + capabilityId + " is a "
                    + value.getClass().getSimpleName() + ", not a " + type.getSimpleName()
                    + "; read it with the getter of the type the descriptor declares");
        }
        return value;
    }
}

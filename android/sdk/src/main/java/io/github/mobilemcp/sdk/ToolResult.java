package io.github.mobilemcp.sdk;

import io.github.mobilemcp.ErrorCode;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;
import org.jspecify.annotations.Nullable;

import java.util.Collection;
import java.util.Map;

/**
 * What a {@link CapabilityHandler} returns: a success with a message and the outputs, or a failure
 * with one of the six codes a handler may send and a message.
 *
 * <pre>{@code
 * return ToolResult.success("Created note " + id).put("id", id);
 * return ToolResult.invalidArguments("there is no note " + id);
 * }</pre>
 *
 * <p>A success must carry every output the descriptor declares, each with its declared type, and
 * nothing else; the engine checks, and answers a mismatch with an {@code internal_error} that
 * names the output. The order of {@code put} calls does not matter. No output is null, so
 * {@code put} refuses a null value at once, with a {@link NullPointerException} that names the
 * output; when there is no value to give, return a failure instead.
 *
 * <p>Code deep inside a handler fails the same way by throwing a {@link ToolFailure}. The other
 * codes of {@link ErrorCode} (consent_required, unknown_capability, ...) are the engine's own: no
 * factory makes them.
 */
public final class ToolResult {
    private final @Nullable ErrorCode error;
    private final String message;
    private final @Nullable Long retryAfterMillis;
    private final JSONObject outputs = new JSONObject();

    private ToolResult(@Nullable ErrorCode error, @Nullable String message, @Nullable Long retryAfterMillis) {
        this.error = error;
        this.message = message == null ? "" : message;
        this.retryAfterMillis = retryAfterMillis;
    }

    /**
     * A success. The message says what happened, in words an assistant can repeat to the user
     * ("Created note 7"); MCP clients show it as the tool's text. Null is taken as "".
     */
    public static ToolResult success(@Nullable String message) {
        return new ToolResult(null, message, null);
    }

    /**
     * invalid_arguments: the arguments break a rule of yours that the descriptor cannot state
     * ("there is no note 7"). It promises that nothing was done: the agent may fix the request and
     * retry it under the same request id.
     */
    public static ToolResult invalidArguments(String message) {
        return new ToolResult(ErrorCode.INVALID_ARGUMENTS, message, null);
    }

    /**
     * permission_denied: your app lacks an Android permission, or the user refused something. It
     * promises that nothing was done.
     */
    public static ToolResult permissionDenied(String message) {
        return new ToolResult(ErrorCode.PERMISSION_DENIED, message, null);
    }

    /** platform_error: the phone or a service could not do it. It may have done part of it. */
    public static ToolResult platformError(String message) {
        return new ToolResult(ErrorCode.PLATFORM_ERROR, message, null);
    }

    /** timeout: something the handler waited for did not answer in time; it may still happen. */
    public static ToolResult timeout(String message) {
        return new ToolResult(ErrorCode.TIMEOUT, message, null);
    }

    /**
     * rate_limited: a limit of your own. Nothing was done. retryAfterMillis, how long the caller
     * should wait, reaches the assistant as the reply's {@code retry_after_ms} (the client library's
     * {@code Reply.retryAfterMillis()}) and an MCP client in the result; the message should say it
     * in words too ("at most 10 notes a minute; retry in 6 seconds"). Throws
     * IllegalArgumentException unless retryAfterMillis is positive.
     */
    public static ToolResult rateLimited(String message, long retryAfterMillis) {
        if (retryAfterMillis <= 0) {
            throw new IllegalArgumentException("ToolResult.rateLimited: retryAfterMillis must be positive, not " + retryAfterMillis);
        }
        return new ToolResult(ErrorCode.RATE_LIMITED, message, retryAfterMillis);
    }

    /** internal_error: a bug; the handler cannot go on. It may have acted. */
    public static ToolResult internalError(String message) {
        return new ToolResult(ErrorCode.INTERNAL_ERROR, message, null);
    }

    /** Sets a string output. */
    public ToolResult put(String output, String value) {
        return set(output, value);
    }

    /** Sets an integer output. */
    public ToolResult put(String output, int value) {
        return set(output, value);
    }

    /** Sets an integer output. */
    public ToolResult put(String output, long value) {
        return set(output, value);
    }

    /** Sets a number output. It must be finite. */
    public ToolResult put(String output, double value) {
        return set(output, value);
    }

    /** Sets a boolean output. */
    public ToolResult put(String output, boolean value) {
        return set(output, value);
    }

    /** Sets an object output. */
    public ToolResult put(String output, JSONObject value) {
        return set(output, value);
    }

    /** Sets an object output from a map of JSON-compatible values. */
    public ToolResult put(String output, Map<String, ?> value) {
        return set(output, value == null ? null : new JSONObject(value));
    }

    /** Sets an array output. */
    public ToolResult put(String output, JSONArray value) {
        return set(output, value);
    }

    /** Sets an array output from a collection of JSON-compatible values. */
    public ToolResult put(String output, Collection<?> value) {
        return set(output, value == null ? null : new JSONArray(value));
    }

    /**
     * Sets output to value. Neither may be null, though Java lets a caller pass null for both:
     * every declared output is returned, with a value of its declared type (a JSON null is none),
     * so a null is the handler's bug, reported here where it happens rather than by the engine
     * after the handler returned.
     */
    private ToolResult set(@Nullable String output, @Nullable Object value) {
        if (output == null) {
            throw new NullPointerException("ToolResult.put(null, ...): an output needs the name its descriptor declares");
        }
        if (value == null) {
            throw new NullPointerException("ToolResult.put(\"" + output + "\", null): an output value cannot be null; "
                    + "a success returns every output its descriptor declares, each with a value of its declared type, "
                    + "so return a failure, such as ToolResult.invalidArguments(...), when there is none");
        }
        if (error != null) {
            throw new IllegalStateException("a failure has no outputs; " + output + " cannot be set");
        }
        try {
            outputs.put(output, value);
        } catch (JSONException e) {
            throw new IllegalArgumentException("output " + output + ": " + e.getMessage(), e);
        }
        return this;
    }

    /** Whether this is a success. */
    public boolean isSuccess() {
        return error == null;
    }

    /** The failure's code, or null for a success. */
    public @Nullable ErrorCode errorCode() {
        return error;
    }

    /** The message. */
    public String message() {
        return message;
    }

    /** How long a rate_limited caller should wait, in milliseconds; null for any other result. */
    public @Nullable Long retryAfterMillis() {
        return retryAfterMillis;
    }

    /** The result as the engine reads it (see the engine's Handler). */
    String toJson() throws JSONException {
        JSONObject json = new JSONObject().put("message", message);
        if (error != null) {
            json.put("error_code", error.wireName());
            if (retryAfterMillis != null) {
                json.put("retry_after_ms", retryAfterMillis.longValue());
            }
            return json.toString();
        }
        return json.put("output", outputs).toString();
    }
}

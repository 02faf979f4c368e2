package io.github.mobilemcp.sdk;

import io.github.mobilemcp.client.ErrorCode;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;
import org.jspecify.annotations.Nullable;

import java.util.Collection;
import java.util.Map;

/**
 * What a {@link CapabilityHandler} returns: a success with a message and the outputs, or a failure
 * with an {@link ErrorCode} (the client library's, which assistants read too) and a message.
 *
 * <pre>{@code
 * return ToolResult.success("Created note " + id).put("id", id);
 * return ToolResult.failure(ErrorCode.INVALID_ARGUMENTS, "there is no note " + id);
 * }</pre>
 *
 * <p>A success must carry every output the descriptor declares, each with its declared type, and
 * nothing else; the engine checks, and answers a mismatch with an {@code internal_error} that
 * names the output. The order of {@code put} calls does not matter. No output is null, so
 * {@code put} refuses a null value at once, with a {@link NullPointerException} that names the
 * output; when there is no value to give, return a {@link #failure} instead.
 */
public final class ToolResult {
    private final @Nullable ErrorCode error;
    private final String message;
    private final JSONObject outputs = new JSONObject();

    private ToolResult(@Nullable ErrorCode error, @Nullable String message) {
        this.error = error;
        this.message = message == null ? "" : message;
    }

    /**
     * A success. The message says what happened, in words an assistant can repeat to the user
     * ("Created note 7"); MCP clients show it as the tool's text. Null is taken as "".
     */
    public static ToolResult success(@Nullable String message) {
        return new ToolResult(null, message);
    }

    /**
     * A failure: what went wrong, and what the caller could do about it. A null message is taken
     * as "". A handler fails with one of the codes that say something of its work:
     * <ul>
     *   <li>{@link ErrorCode#INVALID_ARGUMENTS}: the arguments break a rule of yours that the
     *       descriptor cannot state (there is no note 7). It promises that nothing was done: the
     *       agent may fix the request and retry it under the same request id.
     *   <li>{@link ErrorCode#PERMISSION_DENIED}: your app lacks an Android permission, or the user
     *       refused something. It too promises that nothing was done.
     *   <li>{@link ErrorCode#PLATFORM_ERROR}: the phone or a service could not do it.
     *   <li>{@link ErrorCode#TIMEOUT}: something the handler waited for did not answer in time; it
     *       may still happen.
     *   <li>{@link ErrorCode#RATE_LIMITED}: a limit of your own; the message should say when to retry.
     *   <li>{@link ErrorCode#INTERNAL_ERROR}: a bug; the handler cannot go on.
     * </ul>
     * The engine alone sends the others (consent_required, unknown_capability, ...): for them this
     * throws IllegalArgumentException, as it does for null.
     */
    public static ToolResult failure(ErrorCode code, @Nullable String message) {
        if (code == null) {
            throw new IllegalArgumentException("a failure needs an ErrorCode");
        }
        switch (code) {
            case INVALID_ARGUMENTS:
            case PERMISSION_DENIED:
            case PLATFORM_ERROR:
            case TIMEOUT:
            case RATE_LIMITED:
            case INTERNAL_ERROR:
                return new ToolResult(code, message);
            default:
                throw new IllegalArgumentException("a handler cannot fail with " + code + ": the engine sends it; use one of"
                        + " INVALID_ARGUMENTS, PERMISSION_DENIED, PLATFORM_ERROR, TIMEOUT, RATE_LIMITED, INTERNAL_ERROR");
        }
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
                    + "so return ToolResult.failure(...) when there is none");
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
    public @Nullable ErrorCode getErrorCode() {
        return error;
    }

    /** The message. */
    public String getMessage() {
        return message;
    }

    /** The result as the engine reads it (see the engine's Handler). */
    String toJson() throws JSONException {
        JSONObject json = new JSONObject().put("message", message);
        if (error != null) {
            return json.put("error_code", error.wireName()).toString();
        }
        return json.put("output", outputs).toString();
    }
}

package io.github.mobilemcp.client;

import io.github.mobilemcp.ErrorCode;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A tool's answer to one invocation, read from the specification's {@code mobile-mcp-response}
 * (the Mobile-MCP spec §3.2). Failures are replies too: {@link #isSuccess()} is false, {@link #message()} says
 * why, and {@link #errorCode()} names the reason as an {@link ErrorCode} when the tool gives one
 * (mobilemcp tools always do: {@code consent_required}, {@code invalid_arguments}, ...). A code this
 * library does not know is {@link ErrorCode#OTHER}, never the app's own words: what an app invents
 * does not reach a model that way. {@link #json()} keeps the reply as it came. A Reply does not
 * change; any thread may read it.
 */
public final class Reply {
    private final @Nullable String id;
    private final @Nullable String capabilityId;
    private final boolean success;
    private final @Nullable String message;
    private final @Nullable ErrorCode errorCode;
    private final @Nullable Long retryAfterMillis;
    private final Map<String, @Nullable Object> outputs;
    private final String json;

    private Reply(@Nullable String id, @Nullable String capabilityId, boolean success, @Nullable String message,
            @Nullable String errorCode, @Nullable Long retryAfterMillis, Map<String, @Nullable Object> outputs, String json) {
        this.id = id;
        this.capabilityId = capabilityId;
        this.success = success;
        this.message = message;
        this.errorCode = success ? null : ErrorCode.of(errorCode);
        this.retryAfterMillis = retryAfterMillis;
        this.outputs = Collections.unmodifiableMap(outputs);
        this.json = json;
    }

    /**
     * Reads a reply in the Mobile-MCP spec's layout, as the {@code mobile-mcp-response} extra holds
     * it, for replies the client did not fetch itself (a test, or a transport of your own). Throws
     * a JSONException when json is not JSON in that layout (a {@code mobile-mcp-response} whose
     * {@code response} has a {@code status}).
     */
    public static Reply fromJson(String json) throws JSONException {
        return parse(json);
    }

    /** Reads a {@code mobile-mcp-response} extra. */
    static Reply parse(@Nullable String json) throws JSONException {
        if (json == null) {
            throw new JSONException("the reply has no " + Wire.EXTRA_RESPONSE + " extra");
        }
        JSONObject response = new JSONObject(json).getJSONObject(Wire.EXTRA_RESPONSE).getJSONObject("response");
        JSONObject capability = response.optJSONObject("capability");
        Map<String, @Nullable Object> outputs = new LinkedHashMap<>();
        JSONArray output = capability == null ? null : capability.optJSONArray("output");
        if (output != null) {
            for (int i = 0; i < output.length(); i++) {
                JSONObject value = output.getJSONObject(i);
                outputs.put(value.getString("name"), value.opt("value"));
            }
        }
        // The message reaches the assistant's model: nothing of it may be hidden from its user.
        String message = string(response, "message");
        return new Reply(string(response, "id"), capability == null ? null : string(capability, "id"),
                "success".equals(response.getString("status")), message == null ? null : HiddenText.strip(message), string(response, "error_code"),
                response.has("retry_after_ms") && !response.isNull("retry_after_ms")
                        ? Math.max(0, response.getLong("retry_after_ms")) : null,
                outputs, json);
    }

    /** The member's string value, or null when it is absent or JSON null. */
    private static @Nullable String string(JSONObject o, String name) {
        return o.isNull(name) ? null : o.optString(name);
    }

    /** The request id this answers; null only when the tool could not read the request at all. */
    public @Nullable String id() {
        return id;
    }

    /** The capability's id, or null when the tool could not tell. */
    public @Nullable String capabilityId() {
        return capabilityId;
    }

    /** Whether the status is "success"; a failure otherwise. */
    public boolean isSuccess() {
        return success;
    }

    /** The tool's words about the outcome, without the characters nobody sees, or null. */
    public @Nullable String message() {
        return message;
    }

    /**
     * Why the call failed, as the reply's {@code error_code} (a mobilemcp extension) names it; null
     * on success and from a tool that sends none (one that follows only the Mobile-MCP spec). A
     * code this library does not know is {@link ErrorCode#OTHER}.
     */
    public @Nullable ErrorCode errorCode() {
        return errorCode;
    }

    /**
     * Whether the tool is waiting for the user to allow this assistant (consent_required): nothing
     * ran. {@link MobileMcpClient#awaitConsent} learns the user's decision; then send the same
     * {@link Request} again.
     */
    public boolean isConsentPending() {
        return errorCode == ErrorCode.CONSENT_REQUIRED;
    }

    /**
     * For rate_limited, how many milliseconds to wait before retrying, as the tool says it in the
     * reply's {@code retry_after_ms} (a mobilemcp extension); null when the reply does not say.
     */
    public @Nullable Long retryAfterMillis() {
        return retryAfterMillis;
    }

    /**
     * The output values by name, in the order the tool sent them: a String, Integer, Long, Double,
     * Boolean, JSONObject or JSONArray each, as org.json reads them; JSONObject.NULL for a JSON null,
     * and null for an output sent without a value. The typed getters ({@link #getLong},
     * {@link #getString}, ...) read one without a cast, whatever boxing JSON gave it.
     */
    public Map<String, @Nullable Object> outputs() {
        return outputs;
    }

    /** Whether the reply has an output named name (with any value, null included). */
    public boolean has(String name) {
        return outputs.containsKey(name);
    }

    /**
     * The integer output name, whatever boxing JSON gave it (Integer, Long, or a Double that is a
     * whole number, as 3.0). Throws IllegalArgumentException, naming the output and what it holds,
     * when it is absent or not a whole number.
     */
    public long getLong(String name) {
        Object v = output(name);
        if (v instanceof Integer || v instanceof Long) {
            return ((Number) v).longValue();
        }
        if (v instanceof Number) {
            double d = ((Number) v).doubleValue();
            if (d == Math.rint(d) && !Double.isInfinite(d) && Math.abs(d) <= 9.007199254740992E15) {
                return (long) d;
            }
        }
        throw wrongType(name, "a whole number", v);
    }

    /** The number output name (any JSON number). Throws IllegalArgumentException when it is absent or not a number. */
    public double getDouble(String name) {
        Object v = output(name);
        if (v instanceof Number) {
            return ((Number) v).doubleValue();
        }
        throw wrongType(name, "a number", v);
    }

    /** The string output name. Throws IllegalArgumentException when it is absent or not a string. */
    public String getString(String name) {
        Object v = output(name);
        if (v instanceof String) {
            return (String) v;
        }
        throw wrongType(name, "a string", v);
    }

    /** The boolean output name. Throws IllegalArgumentException when it is absent or not true or false. */
    public boolean getBoolean(String name) {
        Object v = output(name);
        if (v instanceof Boolean) {
            return (Boolean) v;
        }
        throw wrongType(name, "true or false", v);
    }

    /** The array output name. Throws IllegalArgumentException when it is absent or not an array. */
    public JSONArray getArray(String name) {
        Object v = output(name);
        if (v instanceof JSONArray) {
            return (JSONArray) v;
        }
        throw wrongType(name, "an array", v);
    }

    /** The object output name. Throws IllegalArgumentException when it is absent or not an object. */
    public JSONObject getObject(String name) {
        Object v = output(name);
        if (v instanceof JSONObject) {
            return (JSONObject) v;
        }
        throw wrongType(name, "an object", v);
    }

    /** The output name, which must be there. */
    private @Nullable Object output(String name) {
        if (!outputs.containsKey(name)) {
            throw new IllegalArgumentException("the reply has no output \"" + name + "\"; it has " + outputs.keySet()
                    + (isSuccess() ? "" : " (it is a failure: " + (errorCode == null || errorCode == ErrorCode.OTHER ? "" : errorCode.wireName() + ": ") + message + ")"));
        }
        return outputs.get(name);
    }

    private static IllegalArgumentException wrongType(String name, String wanted, @Nullable Object got) {
        String what = got == null || got == JSONObject.NULL ? "null" : got.getClass().getSimpleName() + " " + got;
        return new IllegalArgumentException("the output \"" + name + "\" is " + what + ", not " + wanted);
    }

    /** The reply as the tool sent it. */
    public String json() {
        return json;
    }

    @Override
    public String toString() {
        return json;
    }
}

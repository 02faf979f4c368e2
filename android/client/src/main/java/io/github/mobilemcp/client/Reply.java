package io.github.mobilemcp.client;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A tool's answer to one invocation, read from the specification's {@code mobile-mcp-response}
 * (the Mobile-MCP spec §3.2). Failures are replies too: {@link #success()} is false, {@link #message()} says
 * why, and {@link #errorCode()} names the reason when the tool gives one (mobilemcp tools always
 * do: {@code consent_required}, {@code invalid_arguments}, ...).
 */
public final class Reply {
    private final String id;
    private final String capabilityId;
    private final String status;
    private final String message;
    private final String errorCode;
    private final Map<String, Object> outputs;
    private final String json;

    private Reply(String id, String capabilityId, String status, String message, String errorCode,
            Map<String, Object> outputs, String json) {
        this.id = id;
        this.capabilityId = capabilityId;
        this.status = status;
        this.message = message;
        this.errorCode = errorCode;
        this.outputs = Collections.unmodifiableMap(outputs);
        this.json = json;
    }

    /**
     * Reads a reply in the Mobile-MCP spec's layout, as the {@code mobile-mcp-response} extra holds
     * it, for replies the client did not fetch itself (a test, or a transport of your own).
     */
    public static Reply fromJson(String json) throws JSONException {
        return parse(json);
    }

    /** Reads a {@code mobile-mcp-response} extra. */
    static Reply parse(String json) throws JSONException {
        if (json == null) {
            throw new JSONException("the reply has no " + Wire.EXTRA_RESPONSE + " extra");
        }
        JSONObject response = new JSONObject(json).getJSONObject(Wire.EXTRA_RESPONSE).getJSONObject("response");
        JSONObject capability = response.optJSONObject("capability");
        Map<String, Object> outputs = new LinkedHashMap<>();
        JSONArray output = capability == null ? null : capability.optJSONArray("output");
        if (output != null) {
            for (int i = 0; i < output.length(); i++) {
                JSONObject value = output.getJSONObject(i);
                outputs.put(value.getString("name"), value.opt("value"));
            }
        }
        return new Reply(string(response, "id"), capability == null ? null : string(capability, "id"),
                response.getString("status"), string(response, "message"), string(response, "error_code"),
                outputs, json);
    }

    /** The member's string value, or null when it is absent or JSON null. */
    private static String string(JSONObject o, String name) {
        return o.isNull(name) ? null : o.optString(name);
    }

    /** The request id this answers; null only when the tool could not read the request at all. */
    public String id() {
        return id;
    }

    /** The capability's id, or null when the tool could not tell. */
    public String capabilityId() {
        return capabilityId;
    }

    /** Whether the status is "success". */
    public boolean success() {
        return "success".equals(status);
    }

    /** The status: "success" or "failure". */
    public String status() {
        return status;
    }

    /** The tool's words about the outcome, or null. */
    public String message() {
        return message;
    }

    /** The failure's error_code (a mobilemcp extension), or null on success or from other tools. */
    public String errorCode() {
        return errorCode;
    }

    /**
     * The output values by name, in the order the tool sent them: a String, Integer, Long, Double,
     * Boolean, JSONObject or JSONArray each, as org.json reads them.
     */
    public Map<String, Object> outputs() {
        return outputs;
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

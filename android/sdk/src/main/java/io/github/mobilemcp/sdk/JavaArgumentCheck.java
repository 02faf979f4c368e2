package io.github.mobilemcp.sdk;

import android.util.Log;

import org.json.JSONObject;

/**
 * Runs an {@link ArgumentCheck} for the engine (gobind's interface of the same name, which the
 * engine calls): the JSON the engine hands over becomes a
 * {@link ToolCall} with the arguments only, and the check's answer goes back as the problem, ""
 * for none. An exception is logged with its stack trace; the engine replies {@code internal_error}
 * with a fixed message that does not quote it, as for a handler's ({@link JavaHandler}).
 */
final class JavaArgumentCheck implements io.github.mobilemcp.intentbridge.ArgumentCheck {
    private final String capabilityId;
    private final ArgumentCheck check;

    JavaArgumentCheck(String capabilityId, ArgumentCheck check) {
        this.capabilityId = capabilityId;
        this.check = check;
    }

    @Override
    public String check(String argsJSON) throws Exception {
        String problem;
        try {
            problem = check.check(new ToolCall(capabilityId, "", "", null, 0, new JSONObject(argsJSON)));
        } catch (Exception | StackOverflowError e) {
            Log.e(McpToolService.LOG_TAG, "the argument check of " + capabilityId + " threw", e);
            throw new Exception("its check threw an exception, which the tool logged");
        }
        return problem == null ? "" : problem;
    }
}

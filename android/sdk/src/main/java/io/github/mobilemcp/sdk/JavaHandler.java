package io.github.mobilemcp.sdk;

import android.util.Log;

import io.github.mobilemcp.intentbridge.Handler;

import org.json.JSONException;
import org.json.JSONObject;

/**
 * Runs a {@link CapabilityHandler} for the engine: the JSON the engine hands over becomes a
 * {@link ToolCall}, and the {@link ToolResult} becomes JSON again. Nothing a handler does, returns
 * or throws gets past it: each mistake becomes a failure the engine can reply with.
 */
final class JavaHandler implements Handler {
    private final String capabilityId;
    private final CapabilityHandler handler;

    JavaHandler(String capabilityId, CapabilityHandler handler) {
        this.capabilityId = capabilityId;
        this.handler = handler;
    }

    @Override
    public String run(String argsJSON, String requestID, String callerPackage, long timeoutMillis) throws JSONException {
        ToolResult result;
        try {
            result = handler.handle(new ToolCall(capabilityId, requestID, callerPackage, timeoutMillis, new JSONObject(argsJSON)));
        } catch (Exception | StackOverflowError e) {
            // The stack trace is for the developer; the agent gets the exception's name and message.
            Log.e(McpToolService.LOG_TAG, "the handler of " + capabilityId + " threw", e);
            return failure(capabilityId + " failed: its handler threw " + e);
        }
        if (result == null) {
            return failure("the handler of " + capabilityId + " returned null; return ToolResult.success(...) or ToolResult.failure(...)");
        }
        return result.toJson();
    }

    private static String failure(String message) throws JSONException {
        return ToolResult.failure(ErrorCode.INTERNAL_ERROR, message).toJson();
    }
}

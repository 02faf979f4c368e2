package io.github.mobilemcp.sdk;

import io.github.mobilemcp.client.ErrorCode;

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
    private final CallerSigners signers;

    JavaHandler(String capabilityId, CapabilityHandler handler, CallerSigners signers) {
        this.capabilityId = capabilityId;
        this.handler = handler;
        this.signers = signers;
    }

    @Override
    public String handle(String argsJSON, String requestID, String callerPackage, long timeoutMillis) throws JSONException {
        ToolResult result;
        try {
            result = handler.handle(new ToolCall(capabilityId, requestID, caller(callerPackage), signers, timeoutMillis, new JSONObject(argsJSON)));
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

    /**
     * The package a handler is told of: the engine's caller, which is one Android vouches for or
     * "", with the shell's name for adb's shell (the Go side's access.ShellCaller) made the shell's
     * package.
     */
    private static String caller(String engineCaller) {
        return "(adb shell)".equals(engineCaller) ? ToolCall.SHELL_PACKAGE : engineCaller;
    }

    private static String failure(String message) throws JSONException {
        return ToolResult.failure(ErrorCode.INTERNAL_ERROR, message).toJson();
    }
}

package io.github.mobilemcp.sdk;

import android.util.Log;

import io.github.mobilemcp.intentbridge.Handler;

import org.json.JSONException;
import org.json.JSONObject;

/**
 * Runs a {@link CapabilityHandler} for the engine: the JSON the engine hands over becomes a
 * {@link ToolCall}, and the {@link ToolResult} becomes JSON again. Nothing a handler does, returns
 * or throws gets past it: a {@link ToolFailure} is the failure it names, and any other exception
 * an internal_error whose message never quotes it, since the caller is another app and the
 * exception's text may hold SQL, file paths or the user's data. The exception goes to the log,
 * where the developer looks (and McpToolRule shows it in a test).
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
        } catch (ToolFailure failure) {
            return failure.toResult().toJson();
        } catch (Exception | StackOverflowError e) {
            Log.e(McpToolService.LOG_TAG, threw(capabilityId, requestID), e);
            return ToolResult.internalError(capabilityId + " failed: its handler threw an exception, which the tool logged"
                    + " under request " + requestID).toJson();
        }
        if (result == null) {
            return ToolResult.internalError("the handler of " + capabilityId + " returned null; return ToolResult.success(...)"
                    + " or a failure such as ToolResult.invalidArguments(...)").toJson();
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

    /**
     * The log message of a handler's exception: it names the capability and the request, so that
     * the log line and the caller's reply meet (McpToolRule finds it by this text).
     */
    static String threw(String capabilityId, String requestID) {
        return "the handler of " + capabilityId + " threw, for request " + requestID;
    }
}

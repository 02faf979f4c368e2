package io.github.mobilemcp.sdk;

import io.github.mobilemcp.ErrorCode;

import org.jspecify.annotations.Nullable;

/**
 * A handler's failure, thrown: code anywhere inside a handler, however deep, fails the call with
 * one of the six codes a handler may send by throwing one, and the caller gets the same reply as
 * if the handler had returned the {@link ToolResult} of that name.
 *
 * <pre>{@code
 * Note note = notes.find(id);
 * if (note == null) {
 *     throw ToolFailure.invalidArguments("there is no note " + id);
 * }
 * }</pre>
 *
 * <p>Any other exception a handler throws is a bug: the caller gets {@code internal_error} with a
 * fixed message that never quotes it (its text may hold SQL, file paths or the user's data, and the
 * caller is another app), and the exception is logged under {@link McpToolService#LOG_TAG} with the
 * request id.
 */
public final class ToolFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient ToolResult result;

    private ToolFailure(ToolResult result) {
        super(result.message());
        this.result = result;
    }

    /** invalid_arguments, as {@link ToolResult#invalidArguments}: nothing was done. */
    public static ToolFailure invalidArguments(String message) {
        return new ToolFailure(ToolResult.invalidArguments(message));
    }

    /** permission_denied, as {@link ToolResult#permissionDenied}: nothing was done. */
    public static ToolFailure permissionDenied(String message) {
        return new ToolFailure(ToolResult.permissionDenied(message));
    }

    /** platform_error, as {@link ToolResult#platformError}. */
    public static ToolFailure platformError(String message) {
        return new ToolFailure(ToolResult.platformError(message));
    }

    /** timeout, as {@link ToolResult#timeout}. */
    public static ToolFailure timeout(String message) {
        return new ToolFailure(ToolResult.timeout(message));
    }

    /**
     * rate_limited, as {@link ToolResult#rateLimited}: nothing was done; the caller should wait
     * retryAfterMillis. Throws IllegalArgumentException unless retryAfterMillis is positive.
     */
    public static ToolFailure rateLimited(String message, long retryAfterMillis) {
        return new ToolFailure(ToolResult.rateLimited(message, retryAfterMillis));
    }

    /**
     * internal_error, as {@link ToolResult#internalError}, with a message you chose to show the
     * caller.
     */
    public static ToolFailure internalError(String message) {
        return new ToolFailure(ToolResult.internalError(message));
    }

    /** The failure's code. */
    public ErrorCode errorCode() {
        ErrorCode code = result.errorCode();
        if (code == null) {
            throw new AssertionError("a ToolFailure is made from a failure");
        }
        return code;
    }

    /** How long a rate_limited caller should wait, in milliseconds; null for the other codes. */
    public @Nullable Long retryAfterMillis() {
        return result.retryAfterMillis();
    }

    /** The reply this failure stands for. */
    ToolResult toResult() {
        return result;
    }
}

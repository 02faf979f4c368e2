package io.github.mobilemcp.client;

import io.github.mobilemcp.ErrorCode;

import org.jspecify.annotations.Nullable;

/**
 * The base of every exception of this library: a call, or a consent exchange, failed without an
 * answer from the tool. The service could not be started or bound, the tool's process died, its
 * reply could not be read, the client was closed, or no reply came in time (the subclass
 * {@link CallTimeoutException}). One catch, of this type, takes them all. A tool's own failure
 * (bad arguments, no consent, ...) is not an exception: it is a {@link Reply} whose
 * {@link Reply#isSuccess()} is false.
 */
public class MobileMcpException extends Exception {
    private static final long serialVersionUID = 1L;

    private final boolean unsent;
    private final transient @Nullable Request request;

    MobileMcpException(String message) {
        this(message, null, false, null);
    }

    MobileMcpException(String message, @Nullable Throwable cause) {
        this(message, cause, false, null);
    }

    MobileMcpException(String message, @Nullable Throwable cause, boolean unsent, @Nullable Request request) {
        super(message, cause);
        this.unsent = unsent;
        this.request = request;
    }

    /** A failure before the request left this app: the service could not be started or bound. */
    static MobileMcpException unsent(String message, @Nullable Throwable cause) {
        return new MobileMcpException(message, cause, true, null);
    }

    /**
     * This failure as request's: the same message, cause and {@link #nothingRan()}, naming the
     * request. Each call gets its own, since one failure (the client closed) may end many calls.
     */
    MobileMcpException of(Request request) {
        MobileMcpException e = new MobileMcpException(getMessage() == null ? "" : getMessage(), getCause(), unsent, request);
        e.setStackTrace(getStackTrace());
        return e;
    }

    /**
     * The request that failed: send it again to retry ({@link Request#send()}), which a mobilemcp
     * tool never runs twice. Null when the failure is not a call's: {@link MobileMcpClient#awaitConsent}
     * and {@link MobileMcpClient#consentQuestion} fail with no request.
     */
    public @Nullable Request request() {
        return request;
    }

    /**
     * Whether nothing ran, because the tool never received the request: it could not be started,
     * bound, or has no binding mode. Sending it again, in the other mode, cannot then run it twice.
     * When false, the tool may have received and run it (its process died before replying, say).
     * The same question as {@link ErrorCode#nothingRan()} asks of a failure reply; a reply's
     * {@code retry_safe} (what the MCP gateway tells a model) is that answer too.
     */
    public boolean nothingRan() {
        return unsent;
    }
}

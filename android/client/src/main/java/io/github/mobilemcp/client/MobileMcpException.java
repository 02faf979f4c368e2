package io.github.mobilemcp.client;

import org.jspecify.annotations.Nullable;

/**
 * An invocation failed before the tool could answer: the service could not be started or bound,
 * the tool's process died, its reply could not be read, or the client was closed. A tool's own
 * failure (bad arguments, no consent, ...) is not an exception: it is a {@link Reply} whose
 * {@link Reply#success()} is false.
 */
public class MobileMcpException extends Exception {
    private final boolean unsent;

    MobileMcpException(String message) {
        this(message, null, false);
    }

    MobileMcpException(String message, @Nullable Throwable cause) {
        this(message, cause, false);
    }

    private MobileMcpException(String message, @Nullable Throwable cause, boolean unsent) {
        // The message may quote a reply, and may reach a model: nothing of it is hidden.
        super(HiddenText.strip(message), cause);
        this.unsent = unsent;
    }

    /** A failure before the request left this app: the service could not be started or bound. */
    static MobileMcpException unsent(String message, @Nullable Throwable cause) {
        return new MobileMcpException(message, cause, true);
    }

    /**
     * Whether nothing ran, because the tool never received the request: it could not be started,
     * bound, or has no binding mode. Sending it again, in the other mode, cannot then run it twice.
     * When false, the tool may have received and run it (its process died before replying, say).
     * The same question as {@link ErrorCode#nothingRan()} asks of a failure reply.
     */
    public boolean nothingRan() {
        return unsent;
    }
}

package io.github.mobilemcp.client;

/**
 * An invocation failed before the tool could answer: the service could not be started or bound,
 * the tool's process died, its reply could not be read, or the client was closed. A tool's own
 * failure (bad arguments, no consent, ...) is not an exception: it is a {@link Reply} whose
 * {@link Reply#success()} is false.
 */
public class MobileMcpException extends Exception {
    MobileMcpException(String message) {
        super(message);
    }

    MobileMcpException(String message, Throwable cause) {
        super(message, cause);
    }
}

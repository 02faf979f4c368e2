package io.github.mobilemcp.client;

import io.github.mobilemcp.ErrorCode;


/**
 * The client's own timeout: no reply came within the time {@link Request#send()} was given ({@link Request#timeoutMillis()}).
 * The tool may have received the request and may still run it, or have run it already. Send the
 * same {@link Request} again: a mobilemcp tool answers a request id it has seen with that
 * request's reply, waiting for it if it still runs, and never runs it twice.
 *
 * <p>This is not the tool's deadline. A capability's {@code mcp:timeout}
 * ({@link Capability#timeoutMillis()}) bounds how long the tool lets it run; when it passes, the
 * tool answers with a {@link Reply} whose code is {@link ErrorCode#TIMEOUT}. Give the client a
 * longer timeout than the tool's deadline ({@link Request#send()} does) and the tool's answer
 * always comes first.
 */
public final class CallTimeoutException extends MobileMcpException {
    private static final long serialVersionUID = 1L;

    CallTimeoutException(Request request, long timeoutMillis) {
        super("no reply from " + request.tool() + " to " + request.capabilityId() + " (request " + request.id() + ") within "
                + timeoutMillis + " ms, the client's timeout" + deadline(request) + "; it may have run: retry with the same"
                + " request (Request.send) to get its reply, which never runs it twice", null, false, request);
    }

    @Override
    MobileMcpException of(Request request) {
        return this;
    }

    private static String deadline(Request request) {
        Capability c = request.tool().capability(request.capabilityId());
        return c == null || c.timeoutMillis() == 0 ? "" : " (the tool's own deadline for " + c.id() + " is " + c.timeoutMillis() + " ms)";
    }

    /** The request that got no reply in time; sending it again is a safe retry. Never null here. */
    @Override
    public Request request() {
        Request request = super.request();
        if (request == null) {
            throw new AssertionError("a CallTimeoutException is made with its request");
        }
        return request;
    }
}

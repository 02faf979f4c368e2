package io.github.mobilemcp.client;

import org.json.JSONException;
import org.json.JSONObject;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * One Mobile-MCP request: a capability of a tool, its arguments and its request id. Sending it
 * again is a retry: the same id, which a mobilemcp tool answers with the first run's reply
 * (waiting for it while it still runs), so a retry never sends an SMS twice.
 *
 * <pre>{@code
 * Request send = client.request(tool, "send_sms", args);
 * Reply reply;
 * try {
 *     reply = send.withTimeoutMillis(20_000).send().get();
 * } catch (ExecutionException e) {
 *     if (!(e.getCause() instanceof CallTimeoutException)) throw e;
 *     reply = send.send().get();                 // the same request: it never runs twice
 * }
 * }</pre>
 *
 * <p>Immutable and safe to share; {@link #withId}, {@link #withMode} and {@link #withTimeoutMillis}
 * return new requests. Keep
 * the id ({@link #id()}) if the assistant may stop before it has the reply: a request made later
 * with {@link #withId} of that id is the same request.
 */
public final class Request {
    /** How much longer than the tool's deadline {@link #send()} waits, for the reply's way back. */
    static final long MARGIN_MILLIS = 10_000;
    /** A mobilemcp tool's deadline for a capability whose descriptor sets none. */
    static final long TOOL_DEFAULT_MILLIS = 30_000;

    private final MobileMcpClient client;
    private final Tool tool;
    private final String capabilityId;
    private final String args;
    private final String id;
    private final Mode mode;
    /** The client's timeout, or 0 for the default. */
    private final long timeoutMillis;

    Request(MobileMcpClient client, Tool tool, String capabilityId, String args, String id, Mode mode,
            long timeoutMillis) {
        if (id.isEmpty()) {
            throw new IllegalArgumentException("a request id must not be empty");
        }
        this.client = client;
        this.tool = tool;
        this.capabilityId = capabilityId;
        this.args = args;
        this.id = id;
        this.mode = mode;
        this.timeoutMillis = timeoutMillis;
    }

    static Request create(MobileMcpClient client, Tool tool, String capabilityId, @Nullable JSONObject args) {
        return new Request(client, tool, capabilityId, args == null ? "{}" : args.toString(), UUID.randomUUID().toString(),
                Mode.BINDING, 0);
    }

    /** The request id: a fresh UUID, or the one {@link #withId} gave. */
    public String id() {
        return id;
    }

    /** The tool it calls. */
    public Tool tool() {
        return tool;
    }

    /** The capability it calls. */
    public String capabilityId() {
        return capabilityId;
    }

    /** A copy of the arguments. */
    public JSONObject arguments() {
        try {
            return new JSONObject(args);
        } catch (JSONException e) {
            throw new IllegalStateException("cannot happen: the arguments were a JSONObject", e);
        }
    }

    /** How it is sent: {@link Mode#BINDING} unless {@link #withMode} says otherwise. */
    public Mode mode() {
        return mode;
    }

    /**
     * The same request under the assistant's own request id, such as one it kept while it was
     * stopped. An id used before for other arguments is refused by the tool with invalid_request.
     */
    public Request withId(String id) {
        return new Request(client, tool, capabilityId, args, id, mode, timeoutMillis);
    }

    /** The same request (the same id) sent in mode; see {@link Mode}. */
    public Request withMode(Mode mode) {
        return new Request(client, tool, capabilityId, args, id, mode, timeoutMillis);
    }

    /**
     * The same request (the same id), whose {@link #send()} waits timeoutMillis for the reply: the
     * client's timeout, not the tool's deadline. Throws IllegalArgumentException unless
     * timeoutMillis is positive.
     */
    public Request withTimeoutMillis(long timeoutMillis) {
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("timeoutMillis must be positive, not " + timeoutMillis);
        }
        return new Request(client, tool, capabilityId, args, id, mode, timeoutMillis);
    }

    /**
     * Sends the request, or sends it again: the future completes with the tool's {@link Reply}, or
     * with a {@link CallTimeoutException} after {@link #timeoutMillis()} (the client's timeout, not
     * the tool's deadline), or with a {@link MobileMcpException} when the tool cannot be reached.
     * After a timeout, or an exception whose {@link MobileMcpException#nothingRan()} is false, send
     * it again.
     */
    public CompletableFuture<Reply> send() {
        return client.send(this, timeoutMillis());
    }

    /**
     * The client's timeout that {@link #send()} uses: the one {@link #withTimeoutMillis} gave, or by
     * default the tool's deadline for the capability ({@link Capability#timeoutMillis()}, or a
     * mobilemcp tool's default of 30 s) and 10 s more for the reply's way back, so that the tool's
     * own timeout reply comes first.
     */
    public long timeoutMillis() {
        if (timeoutMillis > 0) {
            return timeoutMillis;
        }
        Capability c = tool.capability(capabilityId);
        long deadline = c == null || c.timeoutMillis() == 0 ? TOOL_DEFAULT_MILLIS : c.timeoutMillis();
        return deadline + MARGIN_MILLIS;
    }

    @Override
    public String toString() {
        return capabilityId + " of " + tool + " (request " + id + ")";
    }
}

package io.github.mobilemcp.sdk.internal;

/**
 * The Messages of binding mode, as a tool service reads and writes them: the {@code what} of each,
 * and the names in their data (docs/reference/wire.md). The client library keeps its own copy, which
 * a test holds to these. A tool app never sends or reads them: {@link
 * io.github.mobilemcp.sdk.McpToolService} does.
 */
@InternalApi
public final class BindingMessages {
    private BindingMessages() {}

    /** The {@code what} of a request Message (as in the prototype tool). */
    public static final int MSG_INVOKE = 1;
    /** The {@code what} of a reply Message (as in the prototype tool). */
    public static final int MSG_RESULT = 2;
    /**
     * The {@code what} of a Message that waits for the user's decision about the sending app (a
     * mobilemcp extension). One {@link #MSG_CONSENT} answers it, at once when the user has
     * decided, else when they decide or put the question away.
     */
    public static final int MSG_AWAIT_CONSENT = 3;
    /**
     * The {@code what} of the answer to {@link #MSG_AWAIT_CONSENT} and {@link #MSG_CONSENT_QUESTION}:
     * data holds {@link #EXTRA_CONSENT}, and for a question {@link #EXTRA_CONSENT_QUESTION};
     * {@code arg1} is the request's.
     */
    public static final int MSG_CONSENT = 4;
    /**
     * The {@code what} of a Message that asks for the question about the sending app, a
     * PendingIntent that opens it inside the tool, where only the user's own tap decides.
     */
    public static final int MSG_CONSENT_QUESTION = 5;
    /** In a {@link #MSG_CONSENT}: "allowed", "denied", "dismissed" (the user put the question away) or "waiting". */
    public static final String EXTRA_CONSENT = "mobile-mcp-consent";
    /** In a {@link #MSG_CONSENT} that answers {@link #MSG_CONSENT_QUESTION}: the PendingIntent that opens the question. */
    public static final String EXTRA_CONSENT_QUESTION = "mobile-mcp-consent-question";
}

package io.github.mobilemcp.client;

import org.json.JSONException;
import org.json.JSONObject;

/**
 * The Mobile-MCP names this client uses (the Mobile-MCP spec), and the binding-mode Message codes of mobilemcp
 * tools (the prototype tool's). Written out here because the client does not depend on the Tool SDK
 * or its engine; a test checks them against the tool's.
 */
final class Wire {
    static final String ACTION_SERVICE = "mobile.mcp.SERVICE";
    static final String META_NAME = "mobile.mcp.tool.name";
    static final String META_DESCRIPTION = "mobile.mcp.tool.description";
    static final String META_CAPABILITIES = "mobile.mcp.tool.capabilities";

    static final String EXTRA_REQUEST = "mobile-mcp-request";
    static final String EXTRA_CALLBACK = "mobile-mcp-callback";
    static final String EXTRA_RESPONSE = "mobile-mcp-response";

    /** Binding mode: a request Message. */
    static final int MSG_INVOKE = 1;
    /** Binding mode: a reply Message. */
    static final int MSG_RESULT = 2;

    /**
     * Binding mode, a mobilemcp extension: wait for the user's decision about the sending app (its
     * Binder uid). Answered with one {@link #MSG_CONSENT} when the user decides or puts the
     * question away, at once when they have decided.
     */
    static final int MSG_AWAIT_CONSENT = 3;
    /** Binding mode: the answer to {@link #MSG_AWAIT_CONSENT} and {@link #MSG_CONSENT_QUESTION}. */
    static final int MSG_CONSENT = 4;
    /**
     * Binding mode: ask for the tool's consent question about the sending app, answered at once
     * with a {@link #MSG_CONSENT} that holds it as a PendingIntent ({@link #EXTRA_CONSENT_QUESTION}).
     */
    static final int MSG_CONSENT_QUESTION = 5;
    /** In a {@link #MSG_CONSENT}: allowed, denied, dismissed or waiting. */
    static final String EXTRA_CONSENT = "mobile-mcp-consent";
    /** In a {@link #MSG_CONSENT} that answers {@link #MSG_CONSENT_QUESTION}: the PendingIntent that opens the question. */
    static final String EXTRA_CONSENT_QUESTION = "mobile-mcp-consent-question";

    static final String VERSION = "1.0";

    private Wire() {}

    /** A request in the specification's layout, with the arguments as an object under args. */
    static String request(String id, String capabilityId, JSONObject args) {
        try {
            return new JSONObject().put(EXTRA_REQUEST, new JSONObject()
                    .put("version", VERSION)
                    .put("request", new JSONObject()
                            .put("id", id)
                            .put("capability", new JSONObject()
                                    .put("id", capabilityId)
                                    .put("args", args))))
                    .toString();
        } catch (JSONException e) {
            throw new IllegalStateException("cannot happen: no null names", e);
        }
    }
}

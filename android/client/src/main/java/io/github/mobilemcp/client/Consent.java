package io.github.mobilemcp.client;

/**
 * The user's answer to a tool's question whether this assistant may use its capabilities that
 * change something, as {@link MobileMcpClient#awaitConsent} learns it.
 */
public enum Consent {
    /** The user allowed this assistant: send the call again, as the same {@link Request}. */
    ALLOWED,
    /** The user refused this assistant; its calls get permission_denied until the user changes it in the tool. */
    DENIED,
    /**
     * No answer: the time ran out, the user put the question away, or the tool cannot tell (it is
     * not a mobilemcp tool). {@link MobileMcpClient#consentQuestion} opens the question again.
     */
    NO_ANSWER
}

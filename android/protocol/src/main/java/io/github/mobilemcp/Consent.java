package io.github.mobilemcp;

import org.jspecify.annotations.Nullable;

/**
 * The user's consent for a calling app to use a tool's capabilities that change something, in one
 * vocabulary for the tool (the Tool SDK's {@code ToolSettings}), the assistant (the client
 * library's {@code awaitConsent}) and the wire, which writes each as {@link #wireName()}.
 */
public enum Consent {
    /** The user allowed the app: send the refused call again, as the same request. */
    ALLOWED("allowed"),
    /** The user refused the app; its calls get permission_denied until the user changes it in the tool. */
    DENIED("denied"),
    /**
     * The user put the question away without answering; the client library's
     * {@code consentQuestion} opens it again.
     */
    DISMISSED("dismissed"),
    /** Asked, and no answer yet: the question is open, or the time to wait for it ran out. Ask later. */
    WAITING("waiting"),
    /**
     * The tool cannot tell: it did not answer at all (it is not a mobilemcp tool), or it answered
     * with a word this library does not know. Waiting longer will not change it. The wire has no
     * word for it ({@link #wireName()} is "").
     */
    UNKNOWN("");

    private final String wireName;

    Consent(String wireName) {
        this.wireName = wireName;
    }

    /** The word the wire writes, such as {@code allowed}; "" for {@link #UNKNOWN}. */
    public String wireName() {
        return wireName;
    }

    /** The consent that wireName writes: {@link #UNKNOWN} for null, "" or a word this library does not know. */
    public static Consent of(@Nullable String wireName) {
        for (Consent c : values()) {
            if (c != UNKNOWN && c.wireName.equals(wireName)) {
                return c;
            }
        }
        return UNKNOWN;
    }
}

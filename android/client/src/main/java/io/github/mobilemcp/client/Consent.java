package io.github.mobilemcp.client;

import org.jspecify.annotations.Nullable;

/**
 * The user's consent for a calling app to use a tool's capabilities that change something, in one
 * vocabulary for the tool (the SDK's {@code McpTool.Caller}), the assistant (this library) and the
 * wire, which writes each as {@link #wireName()}.
 */
public enum Consent {
    /** The user allowed the app: send the refused call again, as the same {@link Request}. */
    ALLOWED("allowed"),
    /** The user refused the app; its calls get permission_denied until the user changes it in the tool. */
    DENIED("denied"),
    /**
     * The user put the question away without answering; {@link MobileMcpClient#consentQuestion}
     * opens it again.
     */
    DISMISSED("dismissed"),
    /**
     * No answer yet: the tool is asking, or the time to wait ran out, or the tool cannot tell (it
     * is not a mobilemcp tool).
     */
    WAITING("waiting");

    private final String wireName;

    Consent(String wireName) {
        this.wireName = wireName;
    }

    /** The word the wire writes, such as {@code allowed}. */
    public String wireName() {
        return wireName;
    }

    /** The consent that wireName writes; {@link #WAITING} for null or a word this library does not know. */
    static Consent of(@Nullable String wireName) {
        for (Consent c : values()) {
            if (c.wireName.equals(wireName)) {
                return c;
            }
        }
        return WAITING;
    }
}

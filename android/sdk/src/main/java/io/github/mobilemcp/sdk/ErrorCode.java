package io.github.mobilemcp.sdk;

/**
 * Why a handler failed, sent to the agent as the reply's {@code error_code}. Each says what the
 * agent should do next, so pick the one that fits.
 */
public enum ErrorCode {
    /**
     * The arguments break a rule of yours that the descriptor cannot state (there is no note 7, the
     * date is in the past). It promises that nothing was done: the agent may fix the request and
     * retry it under the same request id.
     */
    INVALID_ARGUMENTS("invalid_arguments"),
    /**
     * Your app lacks an Android permission or the user refused something. It too promises that
     * nothing was done.
     */
    PERMISSION_DENIED("permission_denied"),
    /** The phone or a service could not do it (no network, the disk is full). */
    PLATFORM_ERROR("platform_error"),
    /** Something the handler waited for did not answer in time; it may still happen. */
    TIMEOUT("timeout"),
    /** A limit of your own was reached; the message should say when to retry. */
    RATE_LIMITED("rate_limited"),
    /** A bug: the handler cannot go on. */
    INTERNAL_ERROR("internal_error");

    private final String wireName;

    ErrorCode(String wireName) {
        this.wireName = wireName;
    }

    /** The code as the reply's {@code error_code} writes it, such as {@code invalid_arguments}. */
    public String wireName() {
        return wireName;
    }
}

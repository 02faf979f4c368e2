package io.github.mobilemcp;

import org.jspecify.annotations.Nullable;

/**
 * Why a call failed: a reply's {@code error_code} (a mobilemcp extension, docs/reference/errors.md), with what
 * it means for a retry. A tool that only follows the Mobile-MCP spec sends no code, and a code
 * this library does not know yet is {@link #OTHER}. A tool's handler fails with six of them (the
 * Tool SDK's {@code ToolResult} and {@code ToolFailure} name each), an assistant reads all of them
 * (the client library's {@code Reply}), so a tool, its tests and an assistant name codes alike.
 */
public enum ErrorCode {
    /** Not a well-formed request. Nothing ran. */
    INVALID_REQUEST("invalid_request", true),
    /** A request version the tool does not speak. Nothing ran. */
    UNSUPPORTED_VERSION("unsupported_version", true),
    /** The tool has no capability of that id; the message lists those it has. Nothing ran. */
    UNKNOWN_CAPABILITY("unknown_capability", true),
    /** The arguments do not fit; the message names every problem. Nothing ran: fix them and retry. */
    INVALID_ARGUMENTS("invalid_arguments", true),
    /** The tool's app lacks a permission, or the user refused this assistant. Nothing ran. */
    PERMISSION_DENIED("permission_denied", true),
    /**
     * The user has not decided yet whether this assistant may use the capabilities that change
     * something; the tool is asking. Nothing ran. Wait for the decision (the client library's
     * {@code awaitConsent}), then send the same request again.
     */
    CONSENT_REQUIRED("consent_required", true),
    /** Too many calls; the reply's {@code retry_after_ms} says when to retry. Nothing ran. */
    RATE_LIMITED("rate_limited", true),
    /** The phone could not do it (no SIM, no service, ...). It may have done part of it. */
    PLATFORM_ERROR("platform_error", false),
    /**
     * The tool's own deadline ({@code mcp:timeout}) passed before the capability finished: it may
     * still complete. Not the client's own timeout, which the client library reports apart.
     */
    TIMEOUT("timeout", false),
    /**
     * The request is over the tool's size limit (nothing ran), or the capability's reply is over
     * the limit of an Intent reply (it ran). The message says which, so a retry is not promised
     * to be safe.
     */
    TOO_LARGE("too_large", false),
    /** A bug in the tool. It may have acted. */
    INTERNAL_ERROR("internal_error", false),
    /** A code this library does not know. Whether anything ran is unknown. */
    OTHER("", false);

    private final String wireName;
    private final boolean nothingRan;

    ErrorCode(String wireName, boolean nothingRan) {
        this.wireName = wireName;
        this.nothingRan = nothingRan;
    }

    /** The code as the reply writes it, such as {@code consent_required}; "" for {@link #OTHER}. */
    public String wireName() {
        return wireName;
    }

    /**
     * Whether the failure promises that the capability did not run, so that any retry, even as a
     * new request, cannot do it twice. The engine keeps the other failures for replay: sending the
     * same request again (the same request id) gets the same failure, never a second run.
     */
    public boolean nothingRan() {
        return nothingRan;
    }

    /**
     * The code as the reply writes it ({@link #wireName()}), such as {@code consent_required}, so that
     * a code reads in a message as it does on the wire; {@code other} for {@link #OTHER}.
     */
    @Override
    public String toString() {
        return this == OTHER ? "other" : wireName;
    }

    /** The code of wireName, {@link #OTHER} for one this library does not know, or null for null. */
    public static @Nullable ErrorCode of(@Nullable String wireName) {
        if (wireName == null) {
            return null;
        }
        for (ErrorCode code : values()) {
            if (code != OTHER && code.wireName.equals(wireName)) {
                return code;
            }
        }
        return OTHER;
    }
}

package io.github.mobilemcp.client;

/** How an invocation reaches the tool (the Mobile-MCP spec §3.1), as {@link Request#withMode} chooses. */
public enum Mode {
    /**
     * An explicit Intent to the service, with a PendingIntent for the reply; for read-only
     * capabilities only (see {@link MobileMcpClient#request}). From Android 12 an app in the
     * background may not start the service so (Android throws
     * ForegroundServiceStartNotAllowedException); the client then sends the same call in
     * {@link #BINDING} mode instead, and its future completes the same way.
     */
    INTENT,
    /** A binding to the service, with Messages both ways; one binding serves many calls. */
    BINDING,
}

package io.github.mobilemcp.sdk;

/**
 * Runs one capability of your tool. Register one per capability your descriptor declares, with
 * {@link ToolHandlers#on}; in Kotlin, a lambda: {@code handlers.on("list_notes") { call -> ... }}.
 *
 * <p>By the time a handler runs, the engine has checked everything the descriptor says: the
 * arguments' names and types (a {@code "14"} sent for an integer arrives as 14), the required ones,
 * the capability's {@link ArgumentCheck} if you gave it one ({@link ToolHandlers#check}), the
 * calling app's consent for a capability that is not read-only, and its rate limit. A retried
 * request id of a capability that changes something never reaches the handler twice.
 *
 * <p>Handlers run on a worker thread, never the main thread, and may run concurrently with each
 * other. Finish within {@link ToolCall#getRemainingMillis()}: at the deadline the caller is answered
 * with {@code timeout} and what the handler returns later is dropped.
 */
@FunctionalInterface
public interface CapabilityHandler {
    /**
     * Runs the capability and returns its outcome: {@link ToolResult#success} with every output the
     * descriptor declares, or {@link ToolResult#failure}. An exception becomes an
     * {@code internal_error} reply naming it; the app keeps running.
     */
    ToolResult handle(ToolCall call) throws Exception;
}

package io.github.mobilemcp.sdk;

import org.jspecify.annotations.Nullable;

/**
 * Checks a capability's arguments in a way its descriptor cannot state, such as "the title is not
 * blank". Register one with {@link ToolHandlers#check}; in Kotlin, a lambda:
 * {@code handlers.check("create_note") { call -> if (call.getString("title").isBlank()) "title is blank" else null }}.
 *
 * <p>The engine runs it after the descriptor's checks (so the arguments have their declared types)
 * and before everything else: the calling app's consent, a retried request id and the rate limit.
 * A problem it reports rejects the request with {@code invalid_arguments}: the user is not asked, the
 * caller's rate budget is untouched, and the handler does not run. A capability without a check
 * pays nothing for this feature.
 *
 * <p>It runs before anyone has allowed the call, so it must not act, only look at the arguments;
 * and it has no deadline, so keep it quick. The {@link ToolCall} it gets holds the arguments only:
 * its request id and caller package are "". Checks that need your app's state ("there is no note
 * 7") belong in the handler, which answers them with {@code ToolResult.failure(INVALID_ARGUMENTS, ...)}.
 */
@FunctionalInterface
public interface ArgumentCheck {
    /**
     * Returns what is wrong with the call's arguments, written for the assistant that sent them
     * (say what to send instead), or null (or "") when nothing is. An exception becomes an
     * {@code internal_error} reply naming it; the app keeps running.
     */
    @Nullable String check(ToolCall call) throws Exception;
}

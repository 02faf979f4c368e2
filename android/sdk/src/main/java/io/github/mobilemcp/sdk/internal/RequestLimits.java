package io.github.mobilemcp.sdk.internal;

import io.github.mobilemcp.intentbridge.Intentbridge;

/**
 * How much work a tool service takes on at once, as the engine sets it (docs/reliability.md). The
 * class documentation of {@link io.github.mobilemcp.sdk.McpToolService} tells tool developers the
 * numbers; the SDK and its tests read them here.
 */
@InternalApi
public final class RequestLimits {
    private RequestLimits() {}

    /**
     * How many handlers run at once; more requests wait their turn. One calling app runs at most
     * half of them at once.
     */
    public static final int MAX_CONCURRENT_CALLS = (int) Intentbridge.Workers;

    /**
     * How many requests one calling app may have queued or running at once, by any transport. One
     * more is answered rate_limited at once, without being queued, so one app cannot fill the queue
     * (and the heap). Requests whose caller Android does not name share one budget of this size.
     */
    public static final int MAX_IN_FLIGHT_PER_CALLER = (int) Intentbridge.MaxInFlightPerCaller;
}

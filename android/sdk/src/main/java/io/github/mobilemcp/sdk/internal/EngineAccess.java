package io.github.mobilemcp.sdk.internal;

import android.content.Context;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Tool;
import io.github.mobilemcp.sdk.ToolSettings;
import io.github.mobilemcp.sdk.ToolHandlers;

import org.jspecify.annotations.Nullable;

/**
 * The seam to the Go engine, for the SMS reference app, which builds its engine with capabilities
 * in Go and an MCP server of its own, and for the testing library and the SDK's own tests. A tool
 * app never needs it: everything a tool does goes through {@code McpToolService},
 * {@link ToolHandlers}, {@link ToolSettings} and the settings screen.
 *
 * <p>The engine is the sdk package's, which keeps it out of the SDK's API; that package gives
 * this class access to it ({@link #provide}) as it loads.
 */
@InternalApi
public final class EngineAccess {
    private EngineAccess() {}

    /** What the sdk package gives this class: its own ways to the engine. */
    @InternalApi
    public interface Provider {
        /** The process's engine of context's app. */
        Bridge bridge(Context context);

        /** The engine's description of the tool being registered. */
        Tool tool(ToolHandlers handlers);

        /** Gives every capability of context's tool the deadline millis instead of its own. */
        void setTimeoutMillis(Context context, long millis);
    }

    private static volatile @Nullable Provider provider;

    /** Called by the sdk package, once, as the class that holds the engines loads. */
    public static void provide(Provider p) {
        provider = p;
    }

    /** The process's Go engine of context's app. */
    public static Bridge bridge(Context context) {
        ToolSettings.get(context); // loads the sdk's engine holder, which provides
        return provider().bridge(context);
    }

    /**
     * The engine's description of the tool that handlers register for, to add capabilities
     * implemented in Go (the SMS app's {@code Smsapp.addSMS}).
     */
    public static Tool tool(ToolHandlers handlers) {
        return provider().tool(handlers); // handlers exist: the engine holder made them
    }

    /**
     * Gives every capability of context's tool a deadline of millis instead of its
     * {@code mcp:timeout}, so that a test reaches the timeout path quickly. Call it before the tool
     * service is first created; afterwards it throws IllegalStateException.
     */
    public static void setTimeoutMillis(Context context, long millis) {
        ToolSettings.get(context);
        provider().setTimeoutMillis(context, millis);
    }

    private static Provider provider() {
        Provider p = provider;
        if (p == null) {
            throw new IllegalStateException("the sdk has not loaded its engine holder");
        }
        return p;
    }
}

package io.github.mobilemcp.app;

import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.ToolHandlers;
import io.github.mobilemcp.smsapp.Smsapp;
import io.github.mobilemcp.sdk.internal.EngineAccess;

/**
 * The SMS tool's Mobile-MCP service: the Tool SDK's {@link McpToolService}, which does the
 * transports, consent, replies and the foreground notification, serving {@code send_sms} and
 * {@code get_sms_subscriptions}. Those two are implemented in Go, inside the engine
 * ({@code sms}); the phone's part of them is {@link AndroidPlatform}.
 *
 * <p>Agents and {@code mobilemcp adb} name this service by its component,
 * {@code io.github.mobilemcp.app/.ToolService}, so its name stays as it was before the SDK.
 */
public class ToolService extends McpToolService {
    @Override
    protected void registerHandlers(ToolHandlers handlers) {
        // The descriptor (res/xml/mcp_capabilities.xml) declares them exactly as 'mobilemcp gen'
        // writes them from the same Go definitions; the engine refuses to start otherwise.
        Smsapp.addSMS(EngineAccess.tool(handlers), new AndroidPlatform(this));
    }
}

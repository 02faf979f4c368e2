package io.github.mobilemcp.sdktests;

import io.github.mobilemcp.ErrorCode;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.ToolHandlers;
import io.github.mobilemcp.sdk.ToolFailure;
import io.github.mobilemcp.sdk.ToolResult;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.json.JSONArray;
import org.json.JSONObject;

/**
 * The test tool: a handler for each capability of res/xml/mcp_capabilities.xml, written against the
 * Tool SDK's public API only, as any tool app's would be.
 */
public class TestToolService extends McpToolService {
    /** The deadline of a capability without mcp:timeout, which inspect reports against. */
    static final long DEFAULT_DEADLINE_MILLIS = 30_000;

    @Override
    protected void registerHandlers(ToolHandlers handlers) {
        Records records = new Records(getApplicationContext());
        handlers.on("inspect", call -> {
            String text = call.getString("text");
            List<String> given = new ArrayList<>();
            for (Iterator<String> names = call.getArguments().keys(); names.hasNext(); ) {
                given.add(names.next());
            }
            Collections.sort(given);
            Map<String, Object> about = new LinkedHashMap<>();
            about.put("capability", call.getCapabilityId());
            about.put("request_id", call.getRequestId());
            about.put("caller", call.getCallerPackage());
            long left = call.getRemainingMillis();
            JSONObject options = call.getObject("options", new JSONObject());
            JSONArray tags = call.getArray("tags", new JSONArray());
            return ToolResult.success("Inspected " + call.getCapabilityId())
                    .put("text", text)
                    .put("length", text.length())
                    .put("count", call.getLong("count", 7))
                    .put("ratio", call.getDouble("ratio", 0.5))
                    .put("flag", call.getBoolean("flag", false))
                    .put("options", options)
                    .put("tags", tags)
                    .put("given", given)
                    .put("call", about)
                    .put("in_time", left > 0 && left <= DEFAULT_DEADLINE_MILLIS);
        });
        handlers.on("record", call -> ToolResult.success("Recorded").put("count", records.add(call.getString("text"))));
        handlers.check("record", call ->
                call.getString("text").trim().isEmpty() ? "text is blank; give it some text" : null);
        handlers.on("hold", call -> {
            String name = call.getString("name", "");
            Gate.pass(name);
            return ToolResult.success("Held " + name).put("name", name);
        });
        handlers.on("refuse", call -> {
            String code = call.getString("code");
            if (code.equals("EXCEPTION")) {
                throw new IllegalStateException("secret: SELECT body FROM notes WHERE owner = 'ada@example.com'");
            }
            String message = "refused with " + ErrorCode.valueOf(code).wireName();
            boolean thrown = call.getBoolean("thrown", false);
            switch (ErrorCode.valueOf(code)) {
                case INVALID_ARGUMENTS:
                    if (thrown) throw ToolFailure.invalidArguments(message);
                    return ToolResult.invalidArguments(message);
                case PERMISSION_DENIED:
                    if (thrown) throw ToolFailure.permissionDenied(message);
                    return ToolResult.permissionDenied(message);
                case PLATFORM_ERROR:
                    if (thrown) throw ToolFailure.platformError(message);
                    return ToolResult.platformError(message);
                case TIMEOUT:
                    if (thrown) throw ToolFailure.timeout(message);
                    return ToolResult.timeout(message);
                case RATE_LIMITED:
                    if (thrown) throw ToolFailure.rateLimited(message, 30_000);
                    return ToolResult.rateLimited(message, 30_000);
                case INTERNAL_ERROR:
                    if (thrown) throw ToolFailure.internalError(message);
                    return ToolResult.internalError(message);
                default:
                    throw new IllegalArgumentException("a handler cannot fail with " + code);
            }
        });
    }
}

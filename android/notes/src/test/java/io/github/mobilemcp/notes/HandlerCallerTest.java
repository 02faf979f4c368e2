package io.github.mobilemcp.notes;

import static org.junit.Assert.assertEquals;

import android.app.Application;

import io.github.mobilemcp.client.Mode;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.ToolHandlers;
import io.github.mobilemcp.sdk.ToolResult;
import io.github.mobilemcp.sdk.testing.InstalledApps;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RuntimeEnvironment;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * What a handler is told of its caller (ToolCall.getCallerPackage and getCallerSigningSha256): the
 * app Android vouches for, over binding, and nobody in an Intent, whose callback any app it was
 * handed to can send.
 */
@RunWith(McpTestRunner.class)
public class HandlerCallerTest {
    /** Answers list_notes with the caller it was told of, as its one note: {caller, signer}. */
    public static class WhoCalls extends McpToolService {
        @Override
        protected void registerHandlers(ToolHandlers handlers) {
            handlers.on("list_notes", call -> ToolResult.success("who")
                    .put("count", 0)
                    .put("notes", new JSONArray().put(new JSONObject()
                            .put("caller", call.getCallerPackage())
                            .put("signer", call.getCallerSigningSha256()))));
            handlers.on("create_note", call -> ToolResult.success("unused").put("id", 0));
            handlers.on("delete_note", call -> ToolResult.success("unused").put("id", 0));
        }
    }

    @Rule public final WireRule tool = new WireRule(WhoCalls.class).withDescriptor(R.xml.mcp_capabilities);

    private final Application app = RuntimeEnvironment.getApplication();

    @Test
    public void aBoundCallerIsNamedWithItsSigningCertificate() throws Exception {
        InstalledApps.install(app, "com.example.planner", 10_321, "the planner's certificate");
        Reply reply = tool.callAs("com.example.planner", "list_notes", "{}");
        assertEquals("success: who", (reply.isSuccess() ? "success" : "failure") + ": " + reply.message());
        assertEquals("{\"caller\":\"com.example.planner\",\"signer\":\"" + sha256("the planner's certificate") + "\"}",
                reply.getArray("notes").getJSONObject(0).toString());
    }

    @Test
    public void anIntentCallerIsNotNamed() throws Exception {
        String request = "{\"mobile-mcp-request\":{\"version\":\"1.0\",\"request\":{\"id\":\"w1\",\"capability\":{\"id\":\"list_notes\",\"args\":{}}}}}";
        Reply reply = Reply.fromJson(tool.sendForResponse(request, Mode.INTENT));
        assertEquals("success: who", (reply.isSuccess() ? "success" : "failure") + ": " + reply.message());
        assertEquals("{\"caller\":\"\",\"signer\":\"\"}", reply.getArray("notes").getJSONObject(0).toString());
    }

    private static String sha256(String certificate) throws Exception {
        StringBuilder hex = new StringBuilder();
        for (byte b : MessageDigest.getInstance("SHA-256").digest(certificate.getBytes(StandardCharsets.UTF_8))) {
            hex.append(String.format("%02x", b));
        }
        return hex.toString();
    }
}

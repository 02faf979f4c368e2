package com.example.greeter;

import static org.junit.Assert.assertEquals;

import io.github.mobilemcp.ErrorCode;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.McpToolRule;

import java.util.Map;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;

/** The tool as an assistant calls it, through the released engine for this machine. */
@RunWith(McpTestRunner.class)
public class GreeterToolTest {
    @Rule public final McpToolRule tool = new McpToolRule(GreeterToolService.class);

    @Test
    public void greets() throws Exception {
        Reply reply = tool.call("greet", "{\"name\":\"Ada\"}");
        assertEquals(reply.json(), "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"" + reply.id() + "\","
                + "\"capability\":{\"id\":\"greet\",\"output\":[{\"name\":\"greeting\",\"type\":\"string\",\"value\":\"Hello, Ada!\"}]},"
                + "\"status\":\"success\",\"message\":\"Hello, Ada!\"}}}", reply.json());
    }

    @Test
    public void aBlankNameIsInvalidArguments() throws Exception {
        Reply reply = tool.call("greet", Map.of("name", " "));
        assertEquals(ErrorCode.INVALID_ARGUMENTS, reply.errorCode());
        assertEquals("name is blank; give the name of someone to greet", reply.message());
    }
}

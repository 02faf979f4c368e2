package io.github.mobilemcp.sdk;

import static org.junit.Assert.assertEquals;
import static org.junit.Assume.assumeTrue;

import org.json.JSONObject;
import org.junit.Test;

/** A handler's view of its deadline. */
public class ToolCallTest {
    @Test
    public void theTimeLeftIsRoundedUpUntilTheDeadlinePasses() throws Exception {
        JSONObject args = new JSONObject();
        assertEquals(0, new ToolCall("print", "r1", "", null, 0, args).getRemainingMillis());
        long before = System.nanoTime();
        ToolCall call = new ToolCall("print", "r2", "", null, 50, args);
        long left = call.getRemainingMillis();
        // Less than 50 ms are left, but more than 49 unless this thread was held up.
        assumeTrue(System.nanoTime() - before < 1_000_000);
        assertEquals(50, left);
    }
}

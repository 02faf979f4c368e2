package io.github.mobilemcp.sdk;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.Test;
import org.junit.function.ThrowingRunnable;

/**
 * A null output is refused where the handler writes it, at the put that names it, not by the engine
 * after the handler has returned. No Android is involved, so no runner either; the test is in the
 * SDK's package to read the result as the engine does (toJson), and with the app's tests, where the
 * SDK's unit tests live.
 */
public class ToolResultTest {
    private static final String NULL_VALUE = "ToolResult.put(\"event_id\", null): an output value cannot be null; "
            + "a success returns every output its descriptor declares, each with a value of its declared type, "
            + "so return a failure, such as ToolResult.invalidArguments(...), when there is none";

    @Test
    public void aNullStringOutputIsRefusedAtThePut() {
        ToolResult result = ToolResult.success("Created the event");
        NullPointerException e = assertThrows(NullPointerException.class, () -> result.put("event_id", (String) null));
        assertEquals(NULL_VALUE, e.getMessage());
    }

    @Test
    public void everyPutOfAnObjectRefusesNull() {
        ToolResult result = ToolResult.success("Created the event");
        List<ThrowingRunnable> puts = List.of(
                () -> result.put("event_id", (String) null),
                () -> result.put("event_id", (JSONObject) null),
                () -> result.put("event_id", (Map<String, ?>) null),
                () -> result.put("event_id", (JSONArray) null),
                () -> result.put("event_id", (Collection<?>) null));
        List<String> messages = new ArrayList<>();
        for (ThrowingRunnable put : puts) {
            messages.add(assertThrows(NullPointerException.class, put).getMessage());
        }
        assertEquals(List.of(NULL_VALUE, NULL_VALUE, NULL_VALUE, NULL_VALUE, NULL_VALUE), messages);
    }

    @Test
    public void aNullOutputNameIsRefusedAtThePut() {
        ToolResult result = ToolResult.success("Created the event");
        List<ThrowingRunnable> puts = List.of(
                () -> result.put(null, "7"),
                () -> result.put(null, 7),
                () -> result.put(null, 7L),
                () -> result.put(null, 7.5),
                () -> result.put(null, true),
                () -> result.put(null, new JSONObject()),
                () -> result.put(null, Map.of()),
                () -> result.put(null, new JSONArray()),
                () -> result.put(null, List.of()));
        List<String> messages = new ArrayList<>();
        for (ThrowingRunnable put : puts) {
            messages.add(assertThrows(NullPointerException.class, put).getMessage());
        }
        assertEquals(Collections.nCopies(puts.size(), "ToolResult.put(null, ...): an output needs the name its descriptor declares"),
                messages);
    }

    @Test
    public void aRefusedPutLeavesTheResultAsItWas() throws Exception {
        ToolResult result = ToolResult.success("Created the event").put("calendar", "work");
        assertThrows(NullPointerException.class, () -> result.put("event_id", (String) null));
        assertEquals("{\"message\":\"Created the event\",\"output\":{\"calendar\":\"work\"}}", result.toJson());
    }
}

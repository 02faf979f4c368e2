package io.github.mobilemcp.sdktests;


import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.util.List;
import java.util.TreeSet;

import org.json.JSONObject;
import org.robolectric.RuntimeEnvironment;

/**
 * What the tests know of the test tool (TestToolService): its package, the replies its capabilities
 * give, what its record capability recorded, and the SDK's notification ids and channels, which are
 * package-private in the SDK.
 */
final class TestTool {
    /** The test tool's package, which is also the calling app's unless a test names another. */
    static final String APP = "io.github.mobilemcp.sdktests";

    /** The foreground notification's id ("mcp1") and channel. */
    static final int FOREGROUND_NOTIFICATION_ID = 0x6d637031;
    static final String FOREGROUND_CHANNEL = "mobilemcp_requests";
    /** The consent question's id ("mcp2", tagged with the calling package) and channel. */
    static final int CONSENT_NOTIFICATION_ID = 0x6d637032;
    static final String CONSENT_CHANNEL = "mobilemcp_consent";

    private TestTool() {}

    /** The texts the record capability has recorded. */
    static List<String> recorded() {
        return new Records(RuntimeEnvironment.getApplication()).all();
    }

    /** The reply to a record call that left count texts recorded. */
    static String recordedReply(String id, int count) {
        return "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"" + id + "\","
                + "\"capability\":{\"id\":\"record\",\"output\":[{\"name\":\"count\",\"type\":\"integer\",\"value\":" + count + "}]},"
                + "\"status\":\"success\",\"message\":\"Recorded\"}}}";
    }

    /**
     * The reply to an inspect call with only the argument text, from caller: what the handler was
     * given and told, every optional argument at its default.
     */
    static String inspectedReply(String id, String text, String caller) {
        return "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"" + id + "\","
                + "\"capability\":{\"id\":\"inspect\",\"output\":["
                + "{\"name\":\"text\",\"type\":\"string\",\"value\":" + JSONObject.quote(text) + "},"
                + "{\"name\":\"length\",\"type\":\"integer\",\"value\":" + text.length() + "},"
                + "{\"name\":\"count\",\"type\":\"integer\",\"value\":7},"
                + "{\"name\":\"ratio\",\"type\":\"number\",\"value\":0.5},"
                + "{\"name\":\"flag\",\"type\":\"boolean\",\"value\":false},"
                + "{\"name\":\"options\",\"type\":\"object\",\"value\":{}},"
                + "{\"name\":\"tags\",\"type\":\"array\",\"value\":[]},"
                + "{\"name\":\"given\",\"type\":\"array\",\"value\":[\"text\"]},"
                + "{\"name\":\"call\",\"type\":\"object\",\"value\":{\"capability\":\"inspect\",\"request_id\":\"" + id
                + "\",\"caller\":" + JSONObject.quote(caller) + "}},"
                + "{\"name\":\"in_time\",\"type\":\"boolean\",\"value\":true}]},"
                + "\"status\":\"success\",\"message\":\"Inspected inspect\"}}}";
    }

    /** The reply to a hold call named name. */
    static String heldReply(String id, String name) {
        return "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"" + id + "\","
                + "\"capability\":{\"id\":\"hold\",\"output\":[{\"name\":\"name\",\"type\":\"string\",\"value\":" + JSONObject.quote(name) + "}]},"
                + "\"status\":\"success\",\"message\":" + JSONObject.quote("Held " + name) + "}}}";
    }

    /** Waits until the hold calls named names, and no others, wait at the gate. */
    static void awaitInside(String... names) {
        List<String> want = List.of(names);
        WireRule.idleUntil("hold calls " + want + " at the gate", () -> new TreeSet<>(Gate.inside()).equals(new TreeSet<>(want)));
    }
}

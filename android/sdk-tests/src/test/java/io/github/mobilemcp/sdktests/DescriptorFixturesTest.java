package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import android.content.res.Resources;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.DescriptorTree;
import io.github.mobilemcp.sdk.testing.McpTestRunner;

import java.io.InputStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RuntimeEnvironment;

/**
 * A descriptor means on a phone what it means to {@code mobilemcp lint}: each fixture of
 * src/test/res/xml (an example of a lint rule, written from the rules by the engine's Go tests,
 * TestSDKTestsFixturesAreLintsExamples) is compiled by Android's resource compiler, walked by the SDK
 * as a tool's service walks its own descriptor ({@link DescriptorTree}), and handed to the engine,
 * which must refuse it with the errors lint finds in the fixture's text (descriptors/NAME.txt), or,
 * when lint finds none, not refuse its descriptor.
 */
@RunWith(McpTestRunner.class)
public class DescriptorFixturesTest {
    @Test
    public void theEngineRefusesWhatLintRefuses_withLintsMessages() throws Exception {
        Resources res = RuntimeEnvironment.getApplication().getResources();
        int fixtures = 0;
        int refused = 0;
        for (Field field : R.xml.class.getFields()) {
            String name = field.getName();
            if (!name.startsWith("lint_")) {
                continue;
            }
            fixtures++;
            String errors = expectedErrors(name);
            String failure = start(name, DescriptorTree.read(res, field.getInt(null)));
            if (errors.isEmpty()) {
                assertFalse(name + ": lint finds no error, but the engine refuses the descriptor: " + failure,
                        failure.contains("its descriptor has errors"));
                continue;
            }
            refused++;
            assertEquals(name, "intentbridge: the tool cannot start: its descriptor has errors:\n  "
                    + errors.strip().replace("\n", "\n  "), failure);
        }
        assertTrue("only " + fixtures + " fixtures", fixtures >= 15);
        assertTrue("only " + refused + " fixtures broke an error rule", refused >= 10);
    }

    /** Why the engine would not start a tool with descriptor tree, or "" when it starts. */
    private static String start(String name, String tree) throws Exception {
        Bridge bridge = Intentbridge.openBridge("");
        try {
            bridge.start(Intentbridge.newTool("res/xml/" + name + ".xml", tree));
            return "";
        } catch (Exception e) {
            return e.getMessage();
        } finally {
            bridge.close();
        }
    }

    private static String expectedErrors(String name) throws Exception {
        try (InputStream in = DescriptorFixturesTest.class.getResourceAsStream("descriptors/" + name + ".txt")) {
            if (in == null) {
                throw new AssertionError("no descriptors/" + name + ".txt: run go test ./intentbridge -run TestSDKTestsFixtures -update");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}

package io.github.mobilemcp.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RobolectricTestRunner;

/**
 * Every string the client hands an assistant leaves through one filter, whatever its source: a tool
 * whose every field holds a character nobody sees (each end and the middle of every range the
 * filter removes, each blank space of another width, half a surrogate pair) shows none of them in
 * the four exports of {@link ToolCatalog}, in {@link Capability#toMcpTool()}, in the functions'
 * descriptions, in the results of a reply that holds it in every field or of a failure that quotes
 * it, or in the message of the client's own refusal of a reply. The tool is built as a source that
 * forgot the filter would build it: its names hold the characters too, which discovery refuses.
 */
@RunWith(RobolectricTestRunner.class)
public class HiddenTextExitsTest {
    /** One string of each character the filter removes or replaces, with where it came from. */
    private static List<String> hiddenSamples() {
        List<String> samples = new ArrayList<>();
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            boolean hidden = HiddenText.isHidden(cp) || HiddenText.isBlank(cp);
            boolean edge = hidden && (!(HiddenText.isHidden(cp - 1) || HiddenText.isBlank(cp - 1))
                    || !(HiddenText.isHidden(cp + 1) || HiddenText.isBlank(cp + 1)));
            if (edge || hidden && cp % 4099 == 0) {
                samples.add(new String(Character.toChars(cp)));
            }
        }
        samples.add("\ud800");
        samples.add("\udc00");
        return samples;
    }

    @Test
    public void noHiddenCharacterLeavesTheClient() throws Exception {
        List<String> samples = hiddenSamples();
        for (String h : samples) {
            List<Param> inputs = Arrays.asList(
                    new Param("title" + h, "string", true, "A title." + h, 100, "^.*" + h + "$", ""),
                    new Param("tags" + h, "array", false, "Tags." + h, 0, "", "object"),
                    new Param("extra" + h, "object", false, "More." + h, 0, "", ""));
            List<Param> outputs = Collections.singletonList(new Param("id" + h, "integer", false, "Its id." + h, 0, "", ""));
            Capability c = new Capability("create_note" + h, "Saves a note." + h, "1.0" + h, inputs, outputs,
                    "Create" + h + " note", false, false, false, false, 30_000);
            Tool tool = new Tool("com.example.notes", "com.example.notes.Service", "Notes" + h, "Notes." + h, Collections.singletonList(c));
            ToolCatalog catalog = ToolCatalog.of(Collections.singletonList(tool));
            ToolCatalog.Entry e = catalog.entries().get(0);
            String q = JSONObject.quote(h);
            q = q.substring(1, q.length() - 1);
            String success = "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"r1" + q + "\",\"capability\":{\"id\":\"create_note" + q
                    + "\",\"output\":[{\"name\":\"id" + q + "\",\"type\":\"integer\",\"value\":1},{\"name\":\"more" + q + "\",\"type\":\"object\",\"value\":{\"k"
                    + q + "\":[\"v" + q + "\"]}}]},\"status\":\"success\",\"message\":\"Saved" + q + "\"}}}";
            String failure = "{\"mobile-mcp-response\":{\"version\":\"1.0\",\"response\":{\"id\":\"r1" + q
                    + "\",\"status\":\"failure\",\"error_code\":\"invalid_arguments" + q + "\",\"message\":\"No" + q + "\"}}}";
            String where = String.format("U+%04X", h.codePointAt(0));
            assertVisible(where + " openAiTools", catalog.openAiTools());
            assertVisible(where + " openAiStrictTools", catalog.openAiStrictTools());
            assertVisible(where + " anthropicTools", catalog.anthropicTools());
            assertVisible(where + " geminiFunctionDeclarations", catalog.geminiFunctionDeclarations());
            assertVisible(where + " toMcpTool", c.toMcpTool());
            assertVisible(where + " description", e.description());
            assertVisible(where + " result of a success", e.result(Reply.fromJson(success)));
            assertVisible(where + " result of a failure", e.result(Reply.fromJson(failure)));
            assertVisible(where + " result of an exception", e.result(new IllegalStateException("the reply names request r1" + h)));
            assertVisible(where + " the client's refusal", new MobileMcpException("it answered request a with a reply to request r1" + h).getMessage());
        }
    }

    /** The client's refusal of a reply quotes what the reply says, shortened and without what is not shown. */
    @Test
    public void aRefusalQuotesTheReplyShortenedAndVisible() {
        String id = "r1" + "\ufe04\ufe09\udb40\udc41\u3164\u2800" + "0123456789012345678901234567890123456789";
        assertEquals("\"r101234567890123456789012345678901234567…\" with 5 hidden characters", HiddenText.quoteValue(id));
        assertEquals("\"create_note\"", HiddenText.quoteValue("create_note"));
    }

    private static void assertVisible(String where, Object value) {
        if (value instanceof String) {
            String s = (String) value;
            for (int i = 0; i < s.length(); ) {
                int cp = s.codePointAt(i);
                if (HiddenText.isHidden(cp) || HiddenText.isBlank(cp) || Character.getType(cp) == Character.SURROGATE) {
                    fail(where + ": " + String.format("U+%04X", cp) + " reached the assistant in " + JSONObject.quote(s));
                }
                i += Character.charCount(cp);
            }
        } else if (value instanceof JSONObject) {
            JSONObject o = (JSONObject) value;
            for (Iterator<String> keys = o.keys(); keys.hasNext(); ) {
                String key = keys.next();
                assertVisible(where + " (a key)", key);
                assertVisible(where + "." + key, o.opt(key));
            }
        } else if (value instanceof JSONArray) {
            JSONArray a = (JSONArray) value;
            for (int i = 0; i < a.length(); i++) {
                assertVisible(where + "[" + i + "]", a.opt(i));
            }
        }
    }
}

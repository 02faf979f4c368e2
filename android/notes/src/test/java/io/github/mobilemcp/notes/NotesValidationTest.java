package io.github.mobilemcp.notes;

import static org.junit.Assert.assertEquals;
import static org.robolectric.Shadows.shadowOf;

import android.app.Application;
import android.app.Notification;
import android.app.NotificationManager;

import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.McpToolRule;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RuntimeEnvironment;

/**
 * The sample's argument check (handlers.check, a blank title) runs before consent and the rate
 * limit: an app the user never allowed is told what is wrong instead of being asked about, and an
 * allowed app's invalid calls leave its rate budget whole.
 */
@RunWith(McpTestRunner.class)
public class NotesValidationTest {
    @Rule public final McpToolRule tool = new McpToolRule(NotesToolService.class).withoutConsent();

    private final Application app = RuntimeEnvironment.getApplication();

    private static final String BLANK = "{\"title\":\"  \",\"body\":\"2 litres\"}";

    private static String outcome(Reply reply) {
        return (reply.isSuccess() ? "success" : "failure") + " " + reply.errorCode() + ": " + reply.message();
    }

    @Test
    public void aBlankTitleIsInvalidArgumentsBeforeConsentAndTheRateLimit() throws Exception {
        EngineAccess.bridge(RuntimeEnvironment.getApplication()).setSendRateLimit("1/hour");
        String invalid = "failure invalid_arguments: title is blank; give the note a title";

        // Without consent: refused for what it is, and nobody is asked.
        assertEquals(invalid, outcome(tool.call("create_note", BLANK)));
        assertEquals(0, consentNotifications());
        assertEquals(0, tool.settings().getCallers().size());

        // With consent: invalid calls do not use the one call of the budget.
        tool.settings().allow(app.getPackageName());
        for (int i = 0; i < 3; i++) {
            assertEquals(invalid, outcome(tool.call("create_note", BLANK)));
        }
        assertEquals("success null: Created note 1", outcome(tool.call("create_note", "{\"title\":\"Milk\"}")));
        assertEquals("failure rate_limited: create_note is limited to 1/hour per app; retry in 3600 seconds",
                outcome(tool.call("create_note", "{\"title\":\"Bread\"}")));
        assertEquals("1 note", tool.call("list_notes", "{}").message());
    }

    /**
     * A Java string can hold half a surrogate pair, which is not a character; crossing into Go it
     * would become U+FFFD and be saved. It is refused naming the argument. (McpToolRule builds the
     * request with org.json, which writes the half as it is, escaped or not in the arguments given.)
     */
    @Test
    public void halfASurrogatePairIsInvalidArguments() throws Exception {
        tool.settings().allow(app.getPackageName());
        String lone = "failure invalid_arguments: create_note: title holds \\ud800, half of a UTF-16 surrogate pair without the other half, which is not a character";
        assertEquals(lone, outcome(tool.call("create_note", "{\"title\":\"Milk \uD800\"}")));
        assertEquals(lone, outcome(tool.call("create_note", "{\"title\":\"Milk \\uD800\"}")));
        assertEquals("0 notes", tool.call("list_notes", "{}").message());
        // A whole pair is one character, and saved as it is.
        assertEquals("success null: Created note 1", outcome(tool.call("create_note", "{\"title\":\"Milk \uD83E\uDD5B\"}")));
        String notes = String.valueOf(tool.call("list_notes", "{}").outputs().get("notes"));
        if (!notes.contains("\"title\":\"Milk \uD83E\uDD5B\"")) {
            throw new AssertionError("the note's title is not the one sent: " + notes);
        }
    }

    private int consentNotifications() {
        int n = 0;
        for (Notification posted : shadowOf(app.getSystemService(NotificationManager.class)).getAllNotifications()) {
            if (posted.getChannelId().equals("mobilemcp_consent")) {
                n++;
            }
        }
        return n;
    }
}

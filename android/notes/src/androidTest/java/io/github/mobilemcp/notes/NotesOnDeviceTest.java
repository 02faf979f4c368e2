package io.github.mobilemcp.notes;

import static org.junit.Assert.assertEquals;

import android.content.Context;

import androidx.test.platform.app.InstrumentationRegistry;

import io.github.mobilemcp.client.MobileMcpClient;
import io.github.mobilemcp.client.Mode;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.client.Tool;
import io.github.mobilemcp.sdk.ToolSettings;

import org.json.JSONObject;
import org.junit.Test;

import java.util.concurrent.TimeUnit;

/**
 * The pipeline's device step (ci/pipeline.sh device-check, on each emulator): an assistant
 * creates a note by binding to the notes tool through the client library, as an on-device assistant
 * does, with the user's consent given by the test. It runs in the notes app's own process, so the
 * caller Android names is the notes app itself. It needs a device: the host tests cover the same
 * path on Robolectric (NotesAgentsTest).
 */
public class NotesOnDeviceTest {
    @Test
    public void createsANoteByBindingThroughTheClientLibrary() throws Exception {
        Context context = InstrumentationRegistry.getInstrumentation().getTargetContext();
        String caller = context.getPackageName();
        // What the user does in the tool's settings screen, or on its consent notification.
        ToolSettings.get(context).allow(caller);
        try (MobileMcpClient client = new MobileMcpClient(context)) {
            Tool notes = null;
            for (Tool t : client.discover().tools()) {
                if (t.packageName().equals(caller)) {
                    notes = t;
                }
            }
            if (notes == null) {
                throw new AssertionError("the client library does not discover the notes tool");
            }
            Reply reply = client.request(notes, "create_note", new JSONObject().put("title", "pipeline").put("body", "made by the device check")).withMode(Mode.BINDING).withTimeoutMillis(30_000).send().get(60, TimeUnit.SECONDS);
            assertEquals("success", (reply.isSuccess() ? "success" : "failure") + (reply.errorCode() != null ? ": " + reply.errorCode() + ": " + reply.message() : ""));
        }
    }
}

package io.github.mobilemcp.client;

import static org.junit.Assert.assertEquals;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.internal.BindingMessages;
import io.github.mobilemcp.sdk.testing.McpTestRunner;

import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * The client's wire names are the tool's: the engine's, and the Tool SDK's binding Messages. This
 * test sees both sides, so it lives with the app's tests, in the client's package (Wire is
 * package-private); the rest of the client's tests are in the client module, which cannot see the
 * tool service.
 */
@RunWith(McpTestRunner.class) // one runner, one sandbox for every test class
public class WireNamesTest {
    @Test
    public void theClientsNamesAreTheTools() {
        assertEquals(Intentbridge.ServiceAction, Wire.ACTION_SERVICE);
        assertEquals(Intentbridge.MetaToolName, Wire.META_NAME);
        assertEquals(Intentbridge.MetaToolDescription, Wire.META_DESCRIPTION);
        assertEquals(Intentbridge.MetaToolCapabilities, Wire.META_CAPABILITIES);
        assertEquals(Intentbridge.ExtraRequest, Wire.EXTRA_REQUEST);
        assertEquals(Intentbridge.ExtraCallback, Wire.EXTRA_CALLBACK);
        assertEquals(Intentbridge.ExtraResponse, Wire.EXTRA_RESPONSE);
        assertEquals(BindingMessages.MSG_INVOKE, Wire.MSG_INVOKE);
        assertEquals(BindingMessages.MSG_RESULT, Wire.MSG_RESULT);
        assertEquals(BindingMessages.MSG_AWAIT_CONSENT, Wire.MSG_AWAIT_CONSENT);
        assertEquals(BindingMessages.MSG_CONSENT, Wire.MSG_CONSENT);
        assertEquals(BindingMessages.MSG_CONSENT_QUESTION, Wire.MSG_CONSENT_QUESTION);
        assertEquals(BindingMessages.EXTRA_CONSENT, Wire.EXTRA_CONSENT);
        assertEquals(BindingMessages.EXTRA_CONSENT_QUESTION, Wire.EXTRA_CONSENT_QUESTION);
    }
}

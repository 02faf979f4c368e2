package io.github.mobilemcp.client;

import static org.junit.Assert.assertEquals;

import io.github.mobilemcp.app.ToolService;
import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.testing.GoTestRunner;

import org.junit.Test;
import org.junit.runner.RunWith;

/**
 * The client's wire names are the tool's. This test sees both sides, so it lives with the app's
 * tests, in the client's package (Wire is package-private); the rest of the client's tests are in
 * the client module, which cannot see the tool service.
 */
@RunWith(GoTestRunner.class) // one runner, one sandbox for every test class
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
        assertEquals(ToolService.MSG_INVOKE, Wire.MSG_INVOKE);
        assertEquals(ToolService.MSG_RESULT, Wire.MSG_RESULT);
    }
}

package io.github.mobilemcp.sdk;

import static org.junit.Assert.assertEquals;

import io.github.mobilemcp.Consent;
import io.github.mobilemcp.intentbridge.Intentbridge;

import org.junit.Test;

/** The engine, the SDK and the client write the user's consent in the same words. */
public class ConsentWordsTest {
    @Test
    public void theEnginesDecisionsAreTheClientsWords() {
        assertEquals(Consent.ALLOWED.wireName(), Intentbridge.ConsentAllowed);
        assertEquals(Consent.DENIED.wireName(), Intentbridge.ConsentDenied);
    }

    @Test
    public void aWaitingAppHearsTheWireWords() {
        assertEquals("allowed denied dismissed waiting",
                String.join(" ", ConsentWatch.ALLOWED, ConsentWatch.DENIED, ConsentWatch.DISMISSED, ConsentWatch.WAITING));
    }
}

package io.github.mobilemcp.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;

import org.junit.Test;

/**
 * The client's filter makes of a string what the Go engine's makes of it: invisible characters go,
 * the blank spaces of other widths become plain ones, and half of a surrogate pair, which a Java
 * string may hold and JSON cannot carry, becomes U+FFFD as Go's JSON decoding makes it.
 */
public class HiddenTextTest {
    @Test
    public void blankSpacesBecomePlainSpaces() {
        for (int cp : new int[] {0x2000, 0x2003, 0x200A, 0x205F, 0x3000}) {
            String in = "Sends" + new String(Character.toChars(cp)) + "an SMS.";
            assertEquals(in, "Sends an SMS.", HiddenText.strip(in));
            assertEquals(in, "Sends an SMS.", HiddenText.line(in));
        }
        String noBreak = "10\u00a0km, prix\u202f:";
        assertSame("the no-break spaces text needs stay", noBreak, HiddenText.strip(noBreak));
    }

    @Test
    public void halfASurrogatePairBecomesTheReplacementCharacter() {
        assertEquals("a\ufffdb\ufffdc", HiddenText.strip("a\ud800b\udc00c"));
        assertEquals("a\ufffd", HiddenText.line("a\udbff"));
        String pair = "a\ud83d\ude00b\ud834\udd1e"; // two whole pairs: U+1F600 and U+1D11E
        assertSame(pair, HiddenText.strip(pair));
    }

    @Test
    public void invisibleCharactersGo() {
        assertEquals("Sends an SMS.", HiddenText.strip("Se\u200bnds an\ufe04 SMS.\udb40\udc01"));
    }
}

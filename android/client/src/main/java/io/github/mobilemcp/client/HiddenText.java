package io.github.mobilemcp.client;

import java.util.Iterator;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;
import org.jspecify.annotations.Nullable;

/**
 * Removes the characters that change what a model reads without being seen, from every string the
 * client hands an assistant from another app, at its exits: the JSON of {@link ToolCatalog}'s
 * exports, of {@link Capability#toMcpTool()} and of the function results ({@link #visible}), the
 * functions' descriptions, the tools' names, titles and descriptions, the messages of replies, and
 * the messages of the client's own exceptions, which may quote a reply. A tool could otherwise carry instructions for
 * the assistant's model that its user never sees, spelt in variation selectors (one per half byte)
 * or tag characters, or hidden behind bidirectional controls, zero-width characters, blank fillers
 * or private-use characters. The blank spaces of other widths (U+2000 to U+200A, U+205F, U+3000),
 * which can carry data in which of them stands where, become plain spaces; and half of a surrogate
 * pair, which a Java string may hold and JSON cannot carry, becomes U+FFFD, as Go's JSON decoding
 * makes it.
 *
 * <p>It removes exactly what the Go engine's filter removes (the package internal/text, which
 * the MCP server runs on the same strings): its table is generated from that one, and a Go test
 * checks that it still is.
 */
final class HiddenText {
    private HiddenText() {}

    /** The invisible characters, as pairs of first and last code point, in order. */
    private static final int[] RANGES = {
        // BEGIN the table of internal/text.InvisibleRanges
        0x0000, 0x0008, 0x000B, 0x001F, 0x007F, 0x009F, 0x00AD, 0x00AD,
        0x034F, 0x034F, 0x0600, 0x0605, 0x061C, 0x061C, 0x06DD, 0x06DD,
        0x070F, 0x070F, 0x0890, 0x0891, 0x08E2, 0x08E2, 0x115F, 0x1160,
        0x17B4, 0x17B5, 0x180B, 0x180F, 0x200B, 0x200F, 0x202A, 0x202E,
        0x2060, 0x206F, 0x2800, 0x2800, 0x3164, 0x3164, 0xE000, 0xF8FF,
        0xFE00, 0xFE0F, 0xFEFF, 0xFEFF, 0xFFA0, 0xFFA0, 0xFFF0, 0xFFFB,
        0x110BD, 0x110BD, 0x110CD, 0x110CD, 0x13430, 0x1343F, 0x1BCA0, 0x1BCA3,
        0x1D173, 0x1D17A, 0xE0000, 0xE0FFF, 0xF0000, 0xFFFFD, 0x100000, 0x10FFFD,
        // END the table
    };

    /** The blank spaces that become plain ones, as pairs of first and last code point, in order. */
    private static final int[] BLANKS = {
        // BEGIN the table of internal/text.BlankRanges
        0x2000, 0x200A, 0x205F, 0x205F, 0x3000, 0x3000,
        // END the table
    };

    /** Whether cp is invisible. Tab and newline are not: a description may lay itself out with them. */
    static boolean isHidden(int cp) {
        return in(RANGES, cp);
    }

    /** Whether cp is a blank space of another width than a plain space's, which becomes a plain one. */
    static boolean isBlank(int cp) {
        return in(BLANKS, cp);
    }

    private static boolean in(int[] ranges, int cp) {
        int lo = 0;
        int hi = ranges.length / 2 - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (cp < ranges[2 * mid]) {
                hi = mid - 1;
            } else if (cp > ranges[2 * mid + 1]) {
                lo = mid + 1;
            } else {
                return true;
            }
        }
        return false;
    }

    /**
     * The first character of a name (a capability id, a param name, a pattern, an error code) that
     * is not what a person sees: an invisible one, a blank other than the plain space U+0020 (the
     * other blanks carry data in their widths), or half of a surrogate pair alone; -1 when there is
     * none. Such a name is refused, never cleaned: the app expects it back as it wrote it.
     */
    static int unseenIn(String name) {
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            if (isHidden(cp) || (cp != ' ' && Character.isSpaceChar(cp)) || Character.getType(cp) == Character.SURROGATE) {
                return cp;
            }
            i += Character.charCount(cp);
        }
        return -1;
    }

    /**
     * name quoted for a message, with each character {@link #unseenIn} refuses written as a
     * backslash-u escape, so that the message shows it and carries nothing hidden itself.
     */
    static String quote(String name) {
        StringBuilder out = new StringBuilder(name.length() + 2).append('"');
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            String one = new String(Character.toChars(cp));
            if (unseenIn(one) >= 0) {
                out.append(String.format(java.util.Locale.ROOT, "\\u%04X", cp));
            } else {
                out.append(one);
            }
            i += Character.charCount(cp);
        }
        return out.append('"').toString();
    }

    /** How many characters of a value {@link #quoteValue} keeps, as the Go engine's messages do. */
    private static final int EXCERPT = 40;

    /**
     * value, which another app chose (a reply's request id or capability id), quoted for a message
     * that reaches a model: without the characters nobody sees ({@link #strip}), shortened to 40
     * characters with "…" after it when it was longer, in double quotes, and followed by how many
     * characters were removed, if any, so that a value that reads like the expected one is seen not
     * to be. The Go engine quotes so too (internal/text.Quote).
     */
    static String quoteValue(String value) {
        String seen = strip(value);
        String shown = seen.codePointCount(0, seen.length()) <= EXCERPT
                ? seen : seen.substring(0, seen.offsetByCodePoints(0, EXCERPT)) + "…";
        StringBuilder out = new StringBuilder().append('"').append(shown).append('"');
        int removed = value.codePointCount(0, value.length()) - seen.codePointCount(0, seen.length());
        if (removed > 0) {
            out.append(" with ").append(removed).append(removed == 1 ? " hidden character" : " hidden characters");
        }
        return out.toString();
    }

    /**
     * The door every JSON the client hands an assistant leaves through: a copy of value (a JSON
     * value as org.json holds it: a JSONObject, a JSONArray, a String, a number, a boolean, or
     * null) with every string in it, member names included, {@link #strip stripped}. Whatever made
     * the JSON, nothing in it is hidden from the user.
     */
    static Object visible(@Nullable Object value) {
        if (value == null) {
            return JSONObject.NULL;
        }
        if (value instanceof String) {
            return strip((String) value);
        }
        if (value instanceof JSONObject) {
            return visible((JSONObject) value);
        }
        if (value instanceof JSONArray) {
            return visible((JSONArray) value);
        }
        return value;
    }

    /** in as {@link #visible(Object)} makes it. */
    static JSONObject visible(JSONObject in) {
        JSONObject out = new JSONObject();
        for (Iterator<String> keys = in.keys(); keys.hasNext(); ) {
            String key = keys.next();
            try {
                out.put(strip(key), visible(in.opt(key)));
            } catch (JSONException e) {
                throw new IllegalStateException("cannot happen: a name and a JSON value", e);
            }
        }
        return out;
    }

    /** in as {@link #visible(Object)} makes it. */
    static JSONArray visible(JSONArray in) {
        JSONArray out = new JSONArray();
        for (int i = 0; i < in.length(); i++) {
            out.put(visible(in.opt(i)));
        }
        return out;
    }

    /** cp as Unicode writes it, such as U+2005. */
    static String codePoint(int cp) {
        return String.format(java.util.Locale.ROOT, "U+%04X", cp);
    }

    /** text without its invisible characters, with plain spaces for blank ones and U+FFFD for half a surrogate pair. */
    static String strip(String text) {
        return clean(text, false);
    }

    /**
     * text as one line without invisible characters, trimmed: tabs, line breaks, Unicode's line
     * and paragraph separators and blank spaces become plain spaces, so that a title cannot push text onto a line of its
     * own.
     */
    static String line(String text) {
        return clean(text, true).trim();
    }

    private static String clean(String text, boolean oneLine) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int next = i + Character.charCount(cp);
            int replacement = -1; // none: cp stays, or goes when it is hidden
            if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) {
                replacement = 0xFFFD; // half of a pair: JSON cannot carry it
            } else if (isBlank(cp) || oneLine && (cp == '\t' || cp == '\n' || cp == 0x2028 || cp == 0x2029)) {
                replacement = ' ';
            }
            if (isHidden(cp) || replacement >= 0) {
                if (out == null) {
                    out = new StringBuilder(text.length()).append(text, 0, i);
                }
                if (replacement >= 0) {
                    out.appendCodePoint(replacement);
                }
            } else if (out != null) {
                out.append(text, i, next);
            }
            i = next;
        }
        return out == null ? text : out.toString();
    }
}

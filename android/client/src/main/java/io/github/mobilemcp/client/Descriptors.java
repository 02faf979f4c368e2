package io.github.mobilemcp.client;

import org.xmlpull.v1.XmlPullParser;
import org.xmlpull.v1.XmlPullParserException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * Reads a capability descriptor (the Mobile-MCP spec §1.2) from an XmlPullParser: a compiled resource from
 * {@code Resources.getXml}, or text with namespace processing on. It is lenient where the tool can
 * still be invoked correctly (a missing description or version reads as "", a missing required as
 * false, unknown elements are skipped) and strict where it cannot: the descriptor is rejected, and
 * the tool skipped, when the root or its version is wrong, a capability has no id or repeats one,
 * a parameter has no name, repeats one or has a type that is not a descriptor type, or an id, a
 * param name or a pattern holds a character that is not shown (a model would read it, and the user
 * would not).
 */
final class Descriptors {
    static final String ROOT = "mobile-mcp-capabilities";

    /** Why a descriptor cannot be used. */
    static final class BadDescriptorException extends Exception {
        BadDescriptorException(String message) {
            super(message);
        }
    }

    private Descriptors() {}

    static List<Capability> parse(XmlPullParser xml) throws XmlPullParserException, IOException, BadDescriptorException {
        int event = xml.next();
        while (event != XmlPullParser.START_TAG && event != XmlPullParser.END_DOCUMENT) {
            event = xml.next();
        }
        if (event == XmlPullParser.END_DOCUMENT) {
            throw new BadDescriptorException("the descriptor has no elements");
        }
        if (!ROOT.equals(xml.getName())) {
            throw new BadDescriptorException("the descriptor's root element is <" + xml.getName() + ">, not <" + ROOT + ">");
        }
        String version = attr(xml, "version");
        if (!Wire.VERSION.equals(version)) {
            throw new BadDescriptorException(version == null
                    ? "<" + ROOT + "> has no version attribute"
                    : "the descriptor's version is \"" + version + "\"; this client reads " + Wire.VERSION);
        }
        List<Capability> capabilities = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (boolean more = firstChild(xml); more; more = nextSibling(xml)) {
            if (!"capability".equals(xml.getName())) {
                skip(xml);
                continue;
            }
            Capability c = capability(xml);
            if (!ids.add(c.id())) {
                throw new BadDescriptorException("capability id \"" + c.id() + "\" is declared twice");
            }
            capabilities.add(c);
        }
        if (capabilities.isEmpty()) {
            throw new BadDescriptorException("the descriptor declares no capability");
        }
        return capabilities;
    }

    private static Capability capability(XmlPullParser xml) throws XmlPullParserException, IOException, BadDescriptorException {
        String id = attr(xml, "id");
        if (id == null || id.trim().isEmpty()) {
            throw new BadDescriptorException("a <capability> has no id");
        }
        seen(id, "capability id " + HiddenText.quote(id));
        // What a model reads holds nothing the user cannot see (HiddenText).
        String description = HiddenText.strip(orEmpty(attr(xml, "description")));
        String version = orEmpty(attr(xml, "version"));
        String title = hintAttr(xml, "title");
        title = title == null ? null : HiddenText.line(title);
        Boolean readOnly = bool(hintAttr(xml, "readOnly"));
        Boolean destructive = bool(hintAttr(xml, "destructive"));
        Boolean idempotent = bool(hintAttr(xml, "idempotent"));
        Boolean openWorld = bool(hintAttr(xml, "openWorld"));
        long timeoutMillis = durationMillis(hintAttr(xml, "timeout"));
        List<Param> inputs = new ArrayList<>();
        List<Param> outputs = new ArrayList<>();
        for (boolean more = firstChild(xml); more; more = nextSibling(xml)) {
            if ("input".equals(xml.getName())) {
                params(xml, id, "input", inputs);
            } else if ("output".equals(xml.getName())) {
                params(xml, id, "output", outputs);
            } else {
                skip(xml);
            }
        }
        return new Capability(id, description, version, inputs, outputs, title, readOnly, destructive, idempotent, openWorld,
                timeoutMillis);
    }

    /** Appends the params of an input or output section; a second section adds to the first. */
    private static void params(XmlPullParser xml, String capability, String kind, List<Param> list)
            throws XmlPullParserException, IOException, BadDescriptorException {
        for (boolean more = firstChild(xml); more; more = nextSibling(xml)) {
            if (!"param".equals(xml.getName())) {
                skip(xml);
                continue;
            }
            String what = "capability \"" + capability + "\": an " + kind + " <param>";
            String name = attr(xml, "name");
            if (name == null || name.trim().isEmpty()) {
                throw new BadDescriptorException(what + " has no name");
            }
            what = "capability \"" + capability + "\": " + kind + " param " + HiddenText.quote(name);
            seen(name, what);
            for (Param p : list) {
                if (p.name().equals(name)) {
                    throw new BadDescriptorException(what + " is declared twice");
                }
            }
            String written = attr(xml, "type");
            String type = type(written);
            if (type == null) {
                throw new BadDescriptorException(what + (written == null ? " has no type"
                        : " has type \"" + written + "\", which is not one of string, integer, number, boolean, object, array"));
            }
            boolean input = kind.equals("input");
            boolean required = input && "true".equals(attr(xml, "required"));
            boolean text = input && type.equals("string");
            String items = type.equals("array") ? type(hintAttr(xml, "items")) : null;
            String pattern = text ? orEmpty(hintAttr(xml, "pattern")) : "";
            seen(pattern, what + ": its pattern");
            list.add(new Param(name, type, required, HiddenText.strip(orEmpty(attr(xml, "description"))),
                    text ? count(hintAttr(xml, "maxLength")) : 0, pattern, orEmpty(items)));
            skip(xml);
        }
    }

    /**
     * Refuses the descriptor when name, which a model reads and the tool expects back as it is
     * (an id, a param name, a pattern), holds a character that is not shown ({@link HiddenText#unseenIn}).
     * The id is checked first, so the messages that quote it later quote only what is seen.
     */
    private static void seen(String name, String what) throws BadDescriptorException {
        int cp = HiddenText.unseenIn(name);
        if (cp >= 0) {
            throw new BadDescriptorException(what + " holds " + HiddenText.codePoint(cp)
                    + ", a character that is not shown; names and patterns must be what the user sees");
        }
    }

    /**
     * The milliseconds of an {@code mcp:timeout} written as Go writes a duration ("60s", "500ms",
     * "1m30s"), rounded up; 0 when it is absent or not one, for which the tool uses its default.
     */
    static long durationMillis(@Nullable String text) {
        if (text == null || !text.matches("([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+")) {
            return 0;
        }
        double nanos = 0;
        java.util.regex.Matcher part = java.util.regex.Pattern.compile("([0-9.]+)(ns|us|µs|ms|s|m|h)").matcher(text);
        while (part.find()) {
            double n = Double.parseDouble(part.group(1));
            switch (part.group(2)) {
                case "ns": nanos += n; break;
                case "us": case "µs": nanos += n * 1e3; break;
                case "ms": nanos += n * 1e6; break;
                case "s": nanos += n * 1e9; break;
                case "m": nanos += n * 60e9; break;
                default: nanos += n * 3600e9;
            }
        }
        return (long) Math.ceil(nanos / 1e6);
    }

    /** The canonical type of a descriptor type name, or null when it is not one. */
    static @Nullable String type(@Nullable String name) {
        if (name == null) {
            return null;
        }
        switch (name) {
            case "string":
            case "integer":
            case "number":
            case "boolean":
            case "object":
            case "array":
                return name;
            case "int":
            case "long":
                return "integer";
            case "float":
            case "double":
                return "number";
            case "bool":
                return "boolean";
            default:
                return null;
        }
    }

    /** "true" and "false" as a Boolean; anything else, or nothing, as null (the default). */
    private static @Nullable Boolean bool(@Nullable String value) {
        if ("true".equals(value)) {
            return Boolean.TRUE;
        }
        if ("false".equals(value)) {
            return Boolean.FALSE;
        }
        return null;
    }

    /** A count above 0, or 0 when value is none (lint reports such a value). */
    private static int count(@Nullable String value) {
        try {
            return value == null ? 0 : Math.max(0, Integer.parseInt(value));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static String orEmpty(@Nullable String s) {
        return s == null ? "" : s;
    }

    /** The current element's attribute without a namespace, or null. */
    private static @Nullable String attr(XmlPullParser xml, String name) {
        return attr(xml, "", name);
    }

    /** The current element's mobilemcp attribute (mcp:...), or null. */
    private static @Nullable String hintAttr(XmlPullParser xml, String name) {
        return attr(xml, Capability.HINTS_NAMESPACE, name);
    }

    private static @Nullable String attr(XmlPullParser xml, String namespace, String name) {
        for (int i = 0; i < xml.getAttributeCount(); i++) {
            String ns = xml.getAttributeNamespace(i);
            if (namespace.equals(ns == null ? "" : ns) && name.equals(xml.getAttributeName(i))) {
                return xml.getAttributeValue(i);
            }
        }
        return null;
    }

    /**
     * Moves from a start tag to its first child element and returns true, or to its end tag and
     * returns false.
     */
    private static boolean firstChild(XmlPullParser xml) throws XmlPullParserException, IOException {
        return nextElement(xml, xml.getDepth());
    }

    /** Moves from a child's end tag to the next sibling's start tag, or to the parent's end tag. */
    private static boolean nextSibling(XmlPullParser xml) throws XmlPullParserException, IOException {
        return nextElement(xml, xml.getDepth() - 1);
    }

    private static boolean nextElement(XmlPullParser xml, int parentDepth) throws XmlPullParserException, IOException {
        while (true) {
            int event = xml.next();
            if (event == XmlPullParser.END_DOCUMENT) {
                throw new XmlPullParserException("the descriptor ends inside an element");
            }
            if (event == XmlPullParser.START_TAG) {
                return true;
            }
            if (event == XmlPullParser.END_TAG && xml.getDepth() == parentDepth) {
                return false;
            }
        }
    }

    /** Moves from a start tag to its own end tag. */
    private static void skip(XmlPullParser xml) throws XmlPullParserException, IOException {
        int depth = xml.getDepth();
        while (!(xml.next() == XmlPullParser.END_TAG && xml.getDepth() == depth)) {
            if (xml.getEventType() == XmlPullParser.END_DOCUMENT) {
                throw new XmlPullParserException("the descriptor ends inside an element");
            }
        }
    }
}

package io.github.mobilemcp.sdk.internal;

import android.content.res.Resources;
import android.content.res.XmlResourceParser;

import android.util.Xml;

import org.xmlpull.v1.XmlPullParser;
import org.xmlpull.v1.XmlPullParserException;
import org.xmlpull.v1.XmlSerializer;

import java.io.IOException;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes a compiled XML resource (the descriptor) back as XML text, the form the engine reads, with
 * the platform's XmlSerializer. An
 * agent reads the same compiled resource through {@code Resources.getXml}, so the engine enforces
 * exactly what agents see.
 *
 * <p>Each element starts on the line it had in the source file, so that the line numbers in the
 * engine's findings point into the developer's {@code res/xml} file.
 *
 * <p>The SMS app's gateway, which serves other apps' tools, reads their descriptors with it as their
 * agents do, with {@code PackageManager.getResourcesForApplication}, and gives the engine the text.
 */
@InternalApi
public final class DescriptorXml {
    private static final String MOBILEMCP_NS = "https://mobilemcp.github.io/ns";
    private static final String ANDROID_NS = "http://schemas.android.com/apk/res/android";

    private DescriptorXml() {}

    /** The XML text of the compiled XML resource id of res. */
    public static String read(Resources res, int id) throws XmlPullParserException, IOException {
        // Two passes: a compiled parser cannot rewind, and the root must declare every namespace
        // the document's attributes use before the first of them is written.
        Map<String, String> prefixes = new LinkedHashMap<>(); // namespace URI -> prefix
        try (XmlResourceParser xml = res.getXml(id)) {
            collectNamespaces(xml, prefixes);
        }
        try (XmlResourceParser xml = res.getXml(id)) {
            return write(xml, prefixes);
        }
    }

    private static void collectNamespaces(XmlPullParser xml, Map<String, String> prefixes)
            throws XmlPullParserException, IOException {
        for (int event = xml.next(); event != XmlPullParser.END_DOCUMENT; event = xml.next()) {
            if (event != XmlPullParser.START_TAG) {
                continue;
            }
            for (int i = 0; i < xml.getAttributeCount(); i++) {
                String ns = xml.getAttributeNamespace(i);
                if (ns != null && !ns.isEmpty() && !prefixes.containsKey(ns)) {
                    prefixes.put(ns, MOBILEMCP_NS.equals(ns) ? "mcp" : ANDROID_NS.equals(ns) ? "android" : "ns" + (prefixes.size() + 1));
                }
            }
        }
    }

    private static String write(XmlPullParser xml, Map<String, String> prefixes) throws XmlPullParserException, IOException {
        StringWriter text = new StringWriter();
        XmlSerializer out = Xml.newSerializer();
        out.setOutput(text);
        for (Map.Entry<String, String> e : prefixes.entrySet()) {
            out.setPrefix(e.getValue(), e.getKey()); // declared on the root, in scope everywhere
        }
        int line = 1;
        for (int event = xml.next(); event != XmlPullParser.END_DOCUMENT; event = xml.next()) {
            if (event == XmlPullParser.START_TAG) {
                StringBuilder newlines = new StringBuilder();
                for (int want = xml.getLineNumber(); line < want; line++) {
                    newlines.append('\n');
                }
                if (newlines.length() > 0) {
                    out.ignorableWhitespace(newlines.toString());
                }
                out.startTag(null, xml.getName());
                for (int i = 0; i < xml.getAttributeCount(); i++) {
                    String ns = xml.getAttributeNamespace(i);
                    out.attribute(ns == null || ns.isEmpty() ? null : ns, xml.getAttributeName(i), xml.getAttributeValue(i));
                }
            } else if (event == XmlPullParser.END_TAG) {
                out.endTag(null, xml.getName());
            }
            // Text between elements carries nothing a descriptor uses.
        }
        out.endDocument();
        return text.toString();
    }
}

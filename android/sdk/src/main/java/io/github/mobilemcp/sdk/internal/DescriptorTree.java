package io.github.mobilemcp.sdk.internal;

import android.content.res.Resources;
import android.content.res.XmlResourceParser;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;
import org.xmlpull.v1.XmlPullParser;
import org.xmlpull.v1.XmlPullParserException;

import java.io.IOException;

/**
 * Walks a compiled XML resource (the descriptor) into the JSON tree the engine reads: each element
 * with its name, its namespace URI ({@code ns}, left out when empty), the line of its start tag,
 * its attributes (each with its namespace, name and value) and its children, written with
 * {@code org.json}:
 *
 * <pre>{@code
 * {"name":"mobile-mcp-capabilities","line":2,"attrs":[{"name":"version","value":"1.0"}],
 *  "children":[{"name":"capability","line":3,"attrs":[...],"children":[...]}]}
 * }</pre>
 *
 * <p>The engine reads no XML, so that the engine every tool app ships stays small: Android compiled
 * the descriptor when the app was built, an agent reads the compiled resource through
 * {@code Resources.getXml}, and so does this, so the engine checks exactly what agents see, with the
 * messages of {@code mobilemcp lint}. The lines are those of the developer's {@code res/xml} file,
 * which the findings point into. Elements below the fifth level are left out: the format has four,
 * and the engine reports an element that does not belong, not what it holds.
 *
 * <p>The SMS app's gateway, which serves other apps' tools, reads their descriptors with it as their
 * agents do, with {@code PackageManager.getResourcesForApplication}.
 */
@InternalApi
public final class DescriptorTree {
    /** The deepest level walked, the root's being 1 (the engine's descriptor.MaxDepth). */
    static final int MAX_DEPTH = 5;

    private DescriptorTree() {}

    /** The JSON tree of the compiled XML resource id of res. */
    public static String read(Resources res, int id) throws XmlPullParserException, IOException {
        try (XmlResourceParser xml = res.getXml(id)) {
            return walk(xml);
        }
    }

    /**
     * The JSON tree of the document xml parses, from its start: a compiled resource's parser, or a
     * namespace-aware parser of XML text.
     */
    public static String walk(XmlPullParser xml) throws XmlPullParserException, IOException {
        JSONObject[] open = new JSONObject[MAX_DEPTH + 1]; // the elements being walked, by depth
        try {
            for (int event = xml.next(); event != XmlPullParser.END_DOCUMENT; event = xml.next()) {
                int depth = xml.getDepth();
                if (event != XmlPullParser.START_TAG || depth > MAX_DEPTH) {
                    continue;
                }
                JSONObject element = new JSONObject().put("name", xml.getName());
                putNamespace(element, xml.getNamespace());
                element.put("line", xml.getLineNumber());
                JSONArray attrs = new JSONArray();
                for (int i = 0; i < xml.getAttributeCount(); i++) {
                    JSONObject attr = new JSONObject();
                    putNamespace(attr, xml.getAttributeNamespace(i));
                    attrs.put(attr.put("name", xml.getAttributeName(i)).put("value", xml.getAttributeValue(i)));
                }
                if (attrs.length() > 0) {
                    element.put("attrs", attrs);
                }
                if (depth > 1) {
                    JSONObject parent = open[depth - 1];
                    JSONArray children = parent.optJSONArray("children");
                    if (children == null) {
                        children = new JSONArray();
                        parent.put("children", children);
                    }
                    children.put(element);
                }
                open[depth] = element;
            }
        } catch (JSONException e) {
            throw new IOException("cannot write the descriptor's tree: " + e.getMessage(), e);
        }
        if (open[1] == null) {
            throw new XmlPullParserException("the descriptor has no root element");
        }
        return open[1].toString();
    }

    private static void putNamespace(JSONObject json, String namespace) throws JSONException {
        if (namespace != null && !namespace.isEmpty()) {
            json.put("ns", namespace);
        }
    }
}

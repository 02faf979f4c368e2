package io.github.mobilemcp.app;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import android.Manifest;
import android.content.Intent;
import android.content.pm.ApplicationInfo;
import android.content.pm.PackageInfo;
import android.content.pm.PackageManager;
import android.content.pm.ResolveInfo;
import android.content.pm.ServiceInfo;
import android.content.res.XmlResourceParser;
import android.os.Bundle;
import android.util.Xml;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.testing.McpTestRunner;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.RuntimeEnvironment;
import org.xmlpull.v1.XmlPullParser;

/**
 * Discovery exactly as the Mobile-MCP spec §2 tells an agent to do it, against the manifest and resources that
 * aapt compiled: queryIntentServices with GET_META_DATA, the meta-data, and the descriptor through
 * getResourcesForApplication(appInfo).getXml(id).
 */
@RunWith(McpTestRunner.class)
public class DiscoveryTest {
    /** The app's descriptor as 'mobilemcp gen' writes it (tests run in android/app). */
    static final String DESCRIPTOR = "res/xml/mcp_capabilities.xml";

    private final PackageManager pm = RuntimeEnvironment.getApplication().getPackageManager();

    private ServiceInfo findToolService() {
        List<ResolveInfo> found = pm.queryIntentServices(new Intent("mobile.mcp.SERVICE"), PackageManager.GET_META_DATA);
        assertEquals("services resolving mobile.mcp.SERVICE", 1, found.size());
        return found.get(0).serviceInfo;
    }

    @Test
    public void queryIntentServices_findsTheExportedToolService() {
        ServiceInfo service = findToolService();

        assertEquals("io.github.mobilemcp.app", service.packageName);
        assertEquals("io.github.mobilemcp.app.ToolService", service.name);
        assertTrue("agents in other apps must be able to start it", service.exported);
        // From gradle.properties, merged into the manifest as AGP does.
        assertEquals(24, service.applicationInfo.minSdkVersion);
        assertEquals(34, service.applicationInfo.targetSdkVersion);
        // The @integer reference in the manifest resolves to the API 34 flag.
        assertEquals(ServiceInfo.FOREGROUND_SERVICE_TYPE_SPECIAL_USE, service.getForegroundServiceType());
    }

    @Test
    public void manifest_requestsExactlyTheNeededPermissions() throws Exception {
        PackageInfo info = pm.getPackageInfo("io.github.mobilemcp.app", PackageManager.GET_PERMISSIONS);
        // The app's own, then those the sdk's manifest brings (the merge appends them).
        assertArrayEquals(new String[] {
            Manifest.permission.SEND_SMS,
            Manifest.permission.READ_PHONE_STATE,
            Manifest.permission.INTERNET,
            Manifest.permission.FOREGROUND_SERVICE,
            Manifest.permission.FOREGROUND_SERVICE_SPECIAL_USE,
            Manifest.permission.POST_NOTIFICATIONS,
            "android.permission.HIDE_OVERLAY_WINDOWS", // API 31; the consent and settings screens hide overlays
        }, info.requestedPermissions);
    }

    @Test
    public void metaData_resolvesNameAndDescription() {
        Bundle meta = findToolService().metaData;

        assertNotNull("GET_META_DATA fills metaData", meta);
        // android:value="@string/..." is resolved when the manifest is parsed: the Bundle holds the
        // text that 'mobilemcp gen' wrote to res/values/strings.xml.
        assertEquals("mobilemcp SMS", meta.getString(Intentbridge.MetaToolName));
        assertEquals("Sends SMS messages from this phone and lists its active SIM subscriptions,"
                + " so an assistant can text a phone number from the right SIM.",
                meta.getString(Intentbridge.MetaToolDescription));
        // android:resource="@xml/..." stays a resource id.
        assertEquals(R.xml.mcp_capabilities, meta.getInt(Intentbridge.MetaToolCapabilities));
    }

    @Test
    public void descriptor_isWhatMobilemcpGenWrites() throws Exception {
        ServiceInfo service = findToolService();
        ApplicationInfo app = service.applicationInfo;
        List<String> compiled;
        try (XmlResourceParser xml = pm.getResourcesForApplication(app)
                .getXml(service.metaData.getInt(Intentbridge.MetaToolCapabilities))) {
            compiled = elements(xml);
        }

        // The descriptor 'mobilemcp gen' writes from the engine's definitions (gen --check and a Go
        // test keep the checked-in file equal to them), parsed as text.
        XmlPullParser text = Xml.newPullParser();
        text.setFeature(XmlPullParser.FEATURE_PROCESS_NAMESPACES, true);
        text.setInput(new StringReader(Files.readString(Path.of(DESCRIPTOR))));
        assertEquals(elements(text), compiled);

        // And what that is, so an empty walk cannot pass.
        assertEquals("15 elements, each a start and an end", 30, compiled.size());
        assertEquals("<mobile-mcp-capabilities version=1.0>", compiled.get(0));
        assertEquals("<capability description=Sends an SMS message to a specified phone number. id=send_sms version=1.0"
                + " {https://mobilemcp.github.io/ns}destructive=true {https://mobilemcp.github.io/ns}idempotent=false"
                + " {https://mobilemcp.github.io/ns}openWorld=true {https://mobilemcp.github.io/ns}readOnly=false"
                + " {https://mobilemcp.github.io/ns}timeout=60s {https://mobilemcp.github.io/ns}title=Send SMS>", compiled.get(1));
        assertEquals("<param description=The phone number the SMS should be sent to in international format starting with a plus"
                + " sign followed by the country code. For example +36201234567 name=to_phone_number required=true type=string"
                + " {https://mobilemcp.github.io/ns}pattern=^[+][1-9][0-9]{6,14}$>", compiled.get(3));
        assertEquals("<param description=SMS subscription ID to use for sending. Required when sending is allowed on more"
                + " than one active subscription. name=subscription_id required=false type=integer>", compiled.get(7));
    }

    /**
     * The elements of a descriptor, one string per start and end tag, with the attributes sorted by
     * namespace and name: what is left of an XML file once aapt has compiled it.
     */
    private static List<String> elements(XmlPullParser xml) throws Exception {
        List<String> out = new ArrayList<>();
        for (int event = xml.next(); event != XmlPullParser.END_DOCUMENT; event = xml.next()) {
            if (event == XmlPullParser.END_TAG) {
                out.add("</" + xml.getName() + ">");
            } else if (event == XmlPullParser.START_TAG) {
                TreeMap<String, String> attrs = new TreeMap<>();
                for (int i = 0; i < xml.getAttributeCount(); i++) {
                    String ns = xml.getAttributeNamespace(i);
                    attrs.put((ns == null || ns.isEmpty() ? "" : "{" + ns + "}") + xml.getAttributeName(i),
                            xml.getAttributeValue(i));
                }
                StringBuilder tag = new StringBuilder("<").append(xml.getName());
                attrs.forEach((name, value) -> tag.append(' ').append(name).append('=').append(value));
                out.add(tag.append('>').toString());
            }
        }
        return out;
    }
}

package io.github.mobilemcp.app;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;
import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.app.ForegroundServiceStartNotAllowedException;
import android.content.ComponentName;
import android.content.Context;
import android.content.ContextWrapper;
import android.content.Intent;
import android.content.IntentFilter;
import android.content.pm.ApplicationInfo;
import android.content.pm.PackageInfo;
import android.content.pm.ServiceInfo;
import android.os.Bundle;
import android.util.Log;
import io.github.mobilemcp.client.CallTimeoutException;
import io.github.mobilemcp.client.Capability;
import io.github.mobilemcp.client.Discovery;
import io.github.mobilemcp.client.DiscoveryProblem;
import io.github.mobilemcp.client.MobileMcpClient;
import io.github.mobilemcp.client.MobileMcpException;
import io.github.mobilemcp.client.Mode;
import io.github.mobilemcp.client.Param;
import io.github.mobilemcp.client.Reply;
import io.github.mobilemcp.client.Tool;
import io.github.mobilemcp.sdk.internal.EngineAccess;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.json.JSONArray;
import org.json.JSONObject;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.annotation.Config;
import org.robolectric.shadows.ShadowLog;
import org.robolectric.shadows.ShadowPackageManager;
import org.robolectric.shadows.ShadowSmsManager;

/**
 * The agent-side client library (io.github.mobilemcp.client) against this app's own tool: discovery,
 * both capabilities in both modes, thirty-two concurrent invocations per mode, timeouts and closing.
 */
@RunWith(McpTestRunner.class)
@Config(shadows = RecordingSmsManager.class)
public class ClientTest {
    private static final String APP = "io.github.mobilemcp.app";

    @Rule public final WireRule agent = new WireRule(ToolService.class).withoutConsent(); // SIMs and permissions

    private final Phone phone = new Phone();

    private ToolHost host;
    private MobileMcpClient client;

    @Before
    public void setUp() {
        RecordingSmsManager.SENDS.clear();
        host = new ToolHost(agent.app());
        client = new MobileMcpClient(agent.app());
    }

    @After
    public void tearDown() {
        client.close();
        host.close();
    }

    private Tool tool() {
        Discovery found = client.discover();
        assertEquals("problems: " + found.problems(), List.of(), found.problems());
        assertEquals(1, found.tools().size());
        return found.tools().get(0);
    }

    private static JSONObject send(String number) throws Exception {
        return new JSONObject().put("to_phone_number", number).put("sms_text", "hi").put("subscription_id", 14);
    }

    @Test
    public void discover_findsThisAppsTool() {
        Tool tool = tool();
        assertEquals(APP, tool.packageName());
        assertEquals("io.github.mobilemcp.app.ToolService", tool.serviceName());
        assertEquals("mobilemcp SMS", tool.name());
        assertEquals("Sends SMS messages from this phone and lists its active SIM subscriptions,"
                + " so an assistant can text a phone number from the right SIM.", tool.description());
        assertEquals(2, tool.capabilities().size());

        Capability send = tool.capabilities().get(0);
        assertSame(send, tool.capability("send_sms"));
        assertEquals("send_sms", send.id());
        assertEquals("Sends an SMS message to a specified phone number.", send.description());
        assertEquals("1.0", send.version());
        assertEquals("[to_phone_number:string (required), sms_text:string (required), subscription_id:integer]",
                send.inputs().toString());
        assertEquals("[to_phone_number:string, subscription_id:integer, encoding:string, segments:integer]",
                send.outputs().toString());
        Param sub = send.inputs().get(2);
        assertEquals("SMS subscription ID to use for sending. Required when sending is allowed on more than one"
                + " active subscription.", sub.description());
        assertEquals("Send SMS", send.title());
        assertEquals(Boolean.FALSE, send.hints().readOnly());
        assertEquals(Boolean.TRUE, send.hints().destructive());
        assertEquals(Boolean.FALSE, send.hints().idempotent());
        assertEquals(Boolean.TRUE, send.hints().openWorld());

        Capability list = tool.capabilities().get(1);
        assertEquals("get_sms_subscriptions", list.id());
        assertEquals(List.of(), list.inputs());
        assertEquals("[count:integer, subscriptions:array]", list.outputs().toString());
        assertEquals(Boolean.TRUE, list.hints().readOnly());
        assertNull(tool.capability("make_coffee"));
    }

    /** Adds a service that answers mobile.mcp.SERVICE, as another tool's manifest would. */
    private void addTool(String pkg, String name, boolean exported, Bundle meta) {
        ShadowPackageManager pm = shadowOf(agent.app().getPackageManager());
        ServiceInfo service = new ServiceInfo();
        service.packageName = pkg;
        service.name = name;
        service.exported = exported;
        service.metaData = meta;
        if (pkg.equals(APP)) {
            service.applicationInfo = agent.app().getApplicationInfo();
        } else {
            PackageInfo other = new PackageInfo();
            other.packageName = pkg;
            other.applicationInfo = new ApplicationInfo();
            other.applicationInfo.packageName = pkg;
            service.applicationInfo = other.applicationInfo;
            pm.installPackage(other);
        }
        pm.addOrUpdateService(service);
        pm.addIntentFilterForService(new ComponentName(pkg, name), new IntentFilter("mobile.mcp.SERVICE"));
    }

    private static Bundle meta(String name, String description, int capabilities) {
        Bundle meta = new Bundle();
        if (name != null) {
            meta.putString("mobile.mcp.tool.name", name);
        }
        meta.putString("mobile.mcp.tool.description", description);
        if (capabilities != 0) {
            meta.putInt("mobile.mcp.tool.capabilities", capabilities);
        }
        return meta;
    }

    @Test
    public void discover_skipsBrokenTools_andSaysWhy() {
        addTool(APP, "io.github.mobilemcp.app.NoMetaData", true, null);
        addTool(APP, "io.github.mobilemcp.app.NoName", true, meta(null, "d", R.xml.mcp_capabilities));
        addTool(APP, "io.github.mobilemcp.app.NoDescriptor", true, meta("n", "d", 0));
        addTool(APP, "io.github.mobilemcp.app.MissingDescriptor", true, meta("n", "d", 0x7f0f9999));
        addTool(APP, "io.github.mobilemcp.app.LayoutAsDescriptor", true, meta("n", "d", R.layout.activity_main));
        addTool("com.example.hidden", "com.example.hidden.Tool", false, meta("n", "d", 1));

        Discovery found = client.discover();
        assertEquals(1, found.tools().size());
        assertEquals("io.github.mobilemcp.app/io.github.mobilemcp.app.ToolService", found.tools().get(0).toString());
        Set<String> problems = new TreeSet<>();
        for (DiscoveryProblem p : found.problems()) {
            problems.add(p.toString());
        }
        assertEquals(new TreeSet<>(List.of(
                "com.example.hidden/com.example.hidden.Tool: the service is not exported, so no other app can invoke it",
                "io.github.mobilemcp.app/io.github.mobilemcp.app.LayoutAsDescriptor: the descriptor's root element is <ScrollView>, not <mobile-mcp-capabilities>",
                "io.github.mobilemcp.app/io.github.mobilemcp.app.MissingDescriptor: mobile.mcp.tool.capabilities names resource 0x7f0f9999, which is not an XML resource of the app",
                "io.github.mobilemcp.app/io.github.mobilemcp.app.NoDescriptor: no mobile.mcp.tool.capabilities meta-data naming an XML resource (android:resource=\"@xml/...\")",
                "io.github.mobilemcp.app/io.github.mobilemcp.app.NoMetaData: the service has no meta-data; it needs mobile.mcp.tool.name, mobile.mcp.tool.description and mobile.mcp.tool.capabilities",
                "io.github.mobilemcp.app/io.github.mobilemcp.app.NoName: no mobile.mcp.tool.name meta-data")),
                problems);
    }

    /**
     * The MCP tools the client makes of the descriptor are exactly what `mobilemcp tools` prints
     * for it, key order included: the golden is that command's output, and a Go test
     * (TestToolsIsTheJavaClientsGolden) keeps it so.
     */
    @Test
    public void toMcpTool_isWhatMobilemcpToolsPrints() throws Exception {
        String golden;
        try (InputStream in = ClientTest.class.getResourceAsStream("/descriptors/mcp_capabilities.json")) {
            golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        JSONArray tools = new JSONObject(golden).getJSONArray("tools");
        List<Capability> capabilities = tool().capabilities();
        assertEquals(tools.length(), capabilities.size());
        for (int i = 0; i < tools.length(); i++) {
            // org.json keeps insertion order, so equal strings mean equal keys, order and values.
            assertEquals(tools.getJSONObject(i).toString(), capabilities.get(i).toMcpTool().toString());
        }
        assertTrue(capabilities.get(0).toMcpTool().toString().startsWith("{\"name\":\"send_sms\",\"title\":\"Send SMS\","));
    }

    private void invokeBothCapabilities(Mode mode) throws Exception {
        Tool tool = tool();
        Reply subs = host.await(client.request(tool, "get_sms_subscriptions", null).withMode(mode).withTimeoutMillis(10_000).send());
        assertTrue(subs.json(), subs.isSuccess());
        assertTrue("a UUID: " + subs.id(), subs.id().matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
        assertEquals("get_sms_subscriptions", subs.capabilityId());
        assertEquals(2, subs.outputs().get("count"));
        JSONArray list = (JSONArray) subs.outputs().get("subscriptions");
        assertEquals("{\"subscription_id\":17,\"sim_slot_index\":1,\"carrier_name\":\"Yettel HU\",\"display_name\":\"Ünnep 🎉\"}",
                list.getJSONObject(1).toString());

        // Not allowed yet: the tool says so, and asks the user.
        Reply refused = host.await(client.request(tool, "send_sms", send("+36 20 123 4567")).withMode(mode).withTimeoutMillis(10_000).send());
        assertEquals("failure", (refused.isSuccess() ? "success" : "failure"));
        assertEquals("consent_required", String.valueOf(refused.errorCode()));
        assertEquals("the user has not yet allowed io.github.mobilemcp.app to use send_sms; a notification on the phone"
                + " asks them, so retry once they allow it", refused.message());
        assertTrue(phone.nothingSent());

        agent.settings().allow(APP);
        CompletableFuture<Reply> sending = client.request(tool, "send_sms", send("+36 20 123 4567")).withMode(mode).withTimeoutMillis(10_000).send();
        host.idleUntil("the send", () -> phone.sms(14).getLastSentMultipartTextMessageParams() != null);
        phone.sms(14).getLastSentMultipartTextMessageParams().getSentIntents().get(0).send(agent.app(), Activity.RESULT_OK, null);
        Reply sent = host.await(sending);
        assertTrue(sent.json(), sent.isSuccess());
        assertEquals("SMS sent to +36201234567", sent.message());
        assertNull(sent.errorCode());
        assertEquals("{to_phone_number=+36201234567, subscription_id=14, encoding=gsm7, segments=1}", sent.outputs().toString());
    }

    @Test
    @Config(sdk = Config.ALL_SDKS) // IntentTransport branches on SDK_INT (26, 31, 33)
    public void intentMode_readsByIntent_andSendsByBinding() throws Exception {
        invokeBothCapabilities(Mode.INTENT);
        // send_sms changes something, so the client binds for it whatever the mode: over an Intent
        // the tool could not tell this app from one it handed its PendingIntent to.
        assertEquals("one start, for the read", 1, host.starts);
        assertEquals("one binding, for both sends", 1, shadowOf(agent.app()).getBoundServiceConnections().size());
    }

    /**
     * An assistant in the background on Android 12+: Android refuses its startForegroundService
     * (ForegroundServiceStartNotAllowedException), so the client sends the same call over a
     * binding, and the future gets the tool's reply to it. Before the fix the call failed
     * with a MobileMcpException.
     */
    @Test
    @Config(minSdk = 31) // the exception, and the rule, of Android 12+
    public void intentMode_inTheBackground_fallsBackToBinding() throws Exception {
        client.close();
        InTheBackground background = new InTheBackground(agent.app());
        client = new MobileMcpClient(background);
        Tool tool = tool();

        // A read, which the client sends by Intent when asked to (what changes something it binds for anyway).
        Reply reply = host.await(client.request(tool, "get_sms_subscriptions", null).withMode(Mode.INTENT).withTimeoutMillis(10_000).send());
        assertEquals(1, background.refused);
        assertTrue(reply.json(), reply.isSuccess());
        assertTrue("a UUID: " + reply.id(), reply.id().matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"));
        assertEquals("get_sms_subscriptions", reply.capabilityId());
        assertEquals(2, reply.outputs().get("count"));
        assertEquals("{\"subscription_id\":17,\"sim_slot_index\":1,\"carrier_name\":\"Yettel HU\",\"display_name\":\"Ünnep 🎉\"}",
                ((JSONArray) reply.outputs().get("subscriptions")).getJSONObject(1).toString());
        assertEquals("no start reached the tool", 0, host.starts);
        assertEquals("a binding did", 1, shadowOf(agent.app()).getBoundServiceConnections().size());
    }

    /**
     * This app as Android 12+ treats an app in the background: startForegroundService throws, as
     * ActivityManagerService does when the app may not start a foreground service. The client
     * keeps it as its context (it is its own application context).
     */
    private static final class InTheBackground extends ContextWrapper {
        int refused;

        InTheBackground(Context base) {
            super(base);
        }

        @Override
        public Context getApplicationContext() {
            return this;
        }

        @Override
        public ComponentName startForegroundService(Intent service) {
            refused++;
            throw new ForegroundServiceStartNotAllowedException("startForegroundService() not allowed due to"
                    + " mAllowStartForeground false: service " + service.getComponent().flattenToShortString());
        }
    }

    @Test
    @Config(sdk = Config.ALL_SDKS)
    public void bindingMode_invokesBothCapabilities() throws Exception {
        invokeBothCapabilities(Mode.BINDING);
        assertEquals("no starts", 0, host.starts);
        assertEquals("one binding for every call", 1, shadowOf(agent.app()).getBoundServiceConnections().size());
    }

    /**
     * Thirty-two invocations per mode, both modes at once, issued from eight threads: reads, refused
     * sends whose message names their own number, and real sends to their own number, of which the
     * phone sends 30 (its cap of 30 SMS parts a minute holds over both transports). Every future
     * must get the reply to its own request. All 64 are in flight at once: the most the tool takes
     * from one app (the sdk's RequestLimits.MAX_IN_FLIGHT_PER_CALLER).
     */
    @Test
    public void thirtyTwoConcurrentInvocationsPerMode_areCorrelated() throws Exception {
        Tool tool = tool();
        agent.settings().allow(APP);
        EngineAccess.bridge(agent.app()).setSendRateLimit("off");
        ExecutorService callers = Executors.newFixedThreadPool(8);
        List<Future<CompletableFuture<Reply>>> issued = new ArrayList<>();
        for (Mode mode : Mode.values()) {
            for (int i = 0; i < PER_MODE; i++) {
                JSONObject args;
                String capability = "send_sms";
                switch (i % 4) {
                    case 0:
                        capability = "get_sms_subscriptions";
                        args = null;
                        break;
                    case 1:
                        args = send("bad-" + mode + "-" + i);
                        break;
                    default:
                        args = send(number(mode, i));
                }
                String c = capability;
                issued.add(callers.submit(() -> client.request(tool, c, args).withMode(mode).withTimeoutMillis(30_000).send()));
            }
        }
        callers.shutdown();
        List<CompletableFuture<Reply>> futures = new ArrayList<>();
        for (Future<CompletableFuture<Reply>> f : issued) {
            futures.add(f.get());
        }

        // The app runs up to half the workers at once; confirm each send as it appears.
        Set<String> sentTo = new HashSet<>();
        host.idleUntil("all 64 replies", () -> {
            for (ShadowSmsManager.TextMultipartParams sent; (sent = RecordingSmsManager.SENDS.poll()) != null; ) {
                sentTo.add(sent.getDestinationAddress());
                try {
                    sent.getSentIntents().get(0).send(agent.app(), Activity.RESULT_OK, null);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
            return futures.stream().allMatch(CompletableFuture::isDone);
        });

        Set<String> ids = new HashSet<>();
        int k = 0;
        int limited = 0;
        for (Mode mode : Mode.values()) {
            for (int i = 0; i < PER_MODE; i++, k++) {
                Reply r = futures.get(k).get();
                ids.add(r.id());
                String what = mode + " #" + i + ": " + r.json();
                switch (i % 4) {
                    case 0:
                        assertEquals(what, "get_sms_subscriptions", r.capabilityId());
                        assertEquals(what, 2, r.outputs().get("count"));
                        break;
                    case 1:
                        assertEquals(what, "invalid_arguments", String.valueOf(r.errorCode()));
                        assertEquals(what, "to_phone_number \"bad-" + mode + "-" + i + "\" is not an international number: write +"
                                + " then the country code and number, 7 to 15 digits in all, for example +36201234567", r.message());
                        break;
                    default:
                        if (!r.isSuccess()) {
                            // 32 sends, and the phone sends 30 SMS parts a minute over every
                            // caller and transport: two of them, whichever came last, wait.
                            assertEquals(what, "rate_limited", String.valueOf(r.errorCode()));
                            assertTrue(what, r.message().startsWith("this phone sends at most 30 SMS parts a minute"));
                            limited++;
                            continue;
                        }
                        assertEquals(what, number(mode, i), r.outputs().get("to_phone_number"));
                }
            }
        }
        assertEquals("every reply has its own id", 2 * PER_MODE, ids.size());
        assertEquals("16 sends per mode, 30 of them sent", 30, sentTo.size());
        assertEquals(2, limited);
        assertEquals(1, shadowOf(agent.app()).getBoundServiceConnections().size());
    }

    /** Invocations per mode in thirtyTwoConcurrentInvocationsPerMode_areCorrelated. */
    private static final int PER_MODE = 32;

    /** A distinct valid number per mode and index. */
    private static String number(Mode mode, int i) {
        return "+362010" + (mode == Mode.INTENT ? "1" : "2") + String.format("%04d", i);
    }

    /**
     * With the notes sample installed after this app, a call to this app's tool reaches this app's
     * tool, by binding and by Intent, and a read of the notes tool by Intent reaches the notes tool.
     */
    @Test
    public void withTheNotesToolInstalled_eachCallReachesItsOwnTool() throws Exception {
        OtherApp notes = new OtherApp(agent.app(), "io.github.mobilemcp.notes", "Notes");
        notes.install(io.github.mobilemcp.notes.NotesToolService.class, "Notes", R.xml.notes_capabilities);
        host.serve(notes);
        try {
            Discovery found = client.discover();
            assertEquals(2, found.tools().size());
            Tool sms = found.tools().stream().filter(t -> t.packageName().equals(APP)).findFirst().get();
            Tool notesTool = found.tools().stream().filter(t -> !t.packageName().equals(APP)).findFirst().get();
            for (Mode mode : Mode.values()) {
                Reply subs = host.await(client.request(sms, "get_sms_subscriptions", null).withMode(mode).withTimeoutMillis(10_000).send());
                assertEquals(mode + ": " + subs.json(), 2, subs.outputs().get("count"));
                Reply list = host.await(client.request(notesTool, "list_notes", null).withMode(mode).withTimeoutMillis(10_000).send());
                assertEquals(mode + ": " + list.json(), "0 notes", list.message());
            }
        } finally {
            notes.stopTool();
        }
    }

    @Test
    public void noReplyInTime_isATimeoutException_andTheCallbackIsCancelled() throws Exception {
        long started = System.nanoTime();
        CompletableFuture<Reply> late = client.request(tool(), "get_sms_subscriptions", null).withMode(Mode.INTENT).withTimeoutMillis(300).send();
        // Android does not start the service (nothing pumps it) until the deadline has passed.
        try {
            late.get();
            fail("a reply came");
        } catch (ExecutionException e) {
            assertTrue(e.getCause() instanceof CallTimeoutException);
            assertTrue(e.getCause().getMessage(), e.getCause().getMessage().matches(
                    "no reply from io\\.github\\.mobilemcp\\.app/io\\.github\\.mobilemcp\\.app\\.ToolService to get_sms_subscriptions"
                            + " \\(request [0-9a-f-]{36}\\) within 300 ms, the client's timeout; it may have run: retry with the same request"
                            + " \\(Request\\.send\\) to get its reply, which never runs it twice"));
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertTrue("timed out after " + millis + " ms", millis >= 300 && millis < 5_000);

        // The tool runs it now; its reply finds the callback cancelled, and the client is not bothered.
        host.pump();
        WireRule.idleUntil("the tool's log line", () -> !ShadowLog.getLogsForTag(ToolService.LOG_TAG).isEmpty());
        ShadowLog.LogItem line = ShadowLog.getLogsForTag(ToolService.LOG_TAG).get(0);
        assertEquals(Log.ERROR, line.type);
        assertTrue(line.msg, line.msg.endsWith(" from io.github.mobilemcp.app (success) was not delivered: its callback was cancelled"));
    }

    @Test
    public void bindingThatNeverConnects_timesOutToo() throws Exception {
        // The main looper is never idled, so onServiceConnected never runs.
        CompletableFuture<Reply> waiting = client.request(tool(), "get_sms_subscriptions", null).withMode(Mode.BINDING).withTimeoutMillis(300).send();
        try {
            waiting.get();
            fail("a reply came");
        } catch (ExecutionException e) {
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof CallTimeoutException);
        }
    }

    @Test
    public void close_failsWhatWaits_andLaterCalls() throws Exception {
        Tool tool = tool();
        CompletableFuture<Reply> waiting = client.request(tool, "get_sms_subscriptions", null).withMode(Mode.BINDING).withTimeoutMillis(10_000).send();
        client.close();
        for (CompletableFuture<Reply> f : List.of(waiting, client.request(tool, "get_sms_subscriptions", null).withMode(Mode.INTENT).withTimeoutMillis(10_000).send())) {
            try {
                f.get();
                fail("a closed client got a reply");
            } catch (ExecutionException e) {
                assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof MobileMcpException);
            }
        }
        assertEquals("the client was closed", getCause(waiting).getMessage());
        assertEquals("close unbinds", 1, shadowOf(agent.app()).getUnboundServiceConnections().size());
    }

    private static Throwable getCause(CompletableFuture<?> f) {
        try {
            f.get();
            return null;
        } catch (Exception e) {
            return e.getCause();
        }
    }

    @Test
    public void aTimeoutMustBePositive() {
        try {
            client.request(tool(), "get_sms_subscriptions", null).withMode(Mode.INTENT).withTimeoutMillis(0).send();
            fail("a zero timeout was accepted");
        } catch (IllegalArgumentException e) {
            assertEquals("timeoutMillis must be positive, not 0", e.getMessage());
        }
        assertNotNull(client);
    }
}

package io.github.mobilemcp.sdk;

import android.app.Notification;
import android.app.Service;
import android.content.Context;
import android.content.pm.PackageManager;
import android.content.res.Resources;

import io.github.mobilemcp.intentbridge.Bridge;
import io.github.mobilemcp.intentbridge.Tool;

import java.io.IOException;

import org.xmlpull.v1.XmlPullParserException;

/**
 * <b>Not part of the SDK's API.</b> The seam through which the SMS reference app, which builds its
 * engine with Go capabilities and an MCP server of its own, reaches the engine and a few of the
 * SDK's platform helpers. A tool app never needs it: everything a tool does goes through
 * {@link McpToolService}, {@link ToolHandlers}, {@link McpTool} and the settings screen. It may
 * change in any release.
 */
public final class EngineAccess {
    private EngineAccess() {}

    /** The process's Go engine of context's app. */
    public static Bridge bridge(Context context) {
        return McpTool.get(context).getEngine();
    }

    /** The engine's description of the tool being registered, for capabilities implemented in Go. */
    public static Tool tool(ToolHandlers handlers) {
        return handlers.engineTool();
    }

    /** Starts service in the foreground with the SDK's rules for each SDK level; false if Android refused. */
    public static boolean startForeground(Service service, int notificationId, Notification notification) {
        return Foreground.start(service, notificationId, notification);
    }

    /** Leaves the foreground, removing the notification. */
    public static void stopForeground(Service service) {
        Foreground.stop(service);
    }

    /** A notification builder on channelId (made on API 26+ with name, description and importance). */
    public static Notification.Builder notificationBuilder(Context context, String channelId, CharSequence name,
            CharSequence description, int importance) {
        return Foreground.notificationBuilder(context, channelId, name, description, importance);
    }

    /** The SHA-256 of packageName's signing certificate, as the SDK keeps consent with it. */
    public static String signerSha256(PackageManager pm, String packageName) throws PackageManager.NameNotFoundException {
        return PackageSigners.sha256(pm, packageName);
    }

    /** The text of the XML resource id, as the engine reads a descriptor. */
    public static String descriptorXml(Resources res, int id) throws XmlPullParserException, IOException {
        return DescriptorXml.read(res, id);
    }
}

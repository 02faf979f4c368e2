package io.github.mobilemcp.app;

import static org.robolectric.Shadows.shadowOf;

import android.app.ActivityThread;
import android.app.Application;
import android.content.ComponentName;
import android.content.Context;
import android.content.ContextWrapper;
import android.content.Intent;
import android.content.IntentFilter;
import android.content.SharedPreferences;
import android.content.pm.ApplicationInfo;
import android.content.pm.PackageInfo;
import android.content.pm.ServiceInfo;
import android.net.Uri;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.IBinder;
import android.os.Message;
import android.os.Messenger;

import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.testing.InstalledApps;

import org.robolectric.shadows.ShadowPackageManager;
import org.robolectric.util.ReflectionHelpers;
import org.robolectric.util.ReflectionHelpers.ClassParameter;

import java.io.File;

/**
 * Another app installed next to this one, with a Mobile-MCP tool service on the Tool SDK.
 *
 * <p>Robolectric runs every package in the test's one process with one Application. A device gives
 * each app its own package name, label, files and preferences, and so does this context: the other
 * app's service is created on it, so the SDK keeps that app's engine, consent decisions and reply
 * store apart from this app's, as two processes would. Its resources are this app's test
 * resources, which hold its descriptor (src/test/res).
 */
final class OtherApp extends ContextWrapper {
    private final String pkg;
    private final ApplicationInfo info;
    private final File dir;
    private McpToolService service;
    private ComponentName component;

    OtherApp(Application app, String pkg, String label) {
        super(app.getBaseContext());
        this.pkg = pkg;
        info = new ApplicationInfo();
        info.packageName = pkg;
        info.nonLocalizedLabel = label;
        info.flags = app.getApplicationInfo().flags;
        info.targetSdkVersion = app.getApplicationInfo().targetSdkVersion;
        dir = new File(app.getDataDir().getParentFile(), pkg);
        info.dataDir = dir.getPath();
    }

    /**
     * Gives the app uid. Without it, Robolectric gives it none (0), and the Binder calls of every
     * app come from the test's one process.
     */
    OtherApp withUid(int uid) {
        info.uid = uid;
        return this;
    }

    /** The certificate an OtherApp of pkg is installed with: one per package name. */
    static String certificate(String pkg) {
        return "the certificate of " + pkg;
    }

    @Override
    public String getPackageName() {
        return pkg;
    }

    @Override
    public String getOpPackageName() {
        return pkg;
    }

    @Override
    public Context getApplicationContext() {
        return this;
    }

    @Override
    public ApplicationInfo getApplicationInfo() {
        return info;
    }

    @Override
    public File getDataDir() {
        return dir;
    }

    @Override
    public File getFilesDir() {
        File files = new File(dir, "files");
        files.mkdirs();
        return files;
    }

    @Override
    public SharedPreferences getSharedPreferences(String name, int mode) {
        return super.getSharedPreferences(pkg + "." + name, mode);
    }

    /**
     * Installs the app with its tool service cls, named toolName, whose descriptor is the resource
     * descriptor; creates the service on this context and lets bindService reach it; and tells
     * the apps that listen, as Android's PACKAGE_ADDED does.
     */
    ComponentName install(Class<? extends McpToolService> cls, String toolName, int descriptor) {
        register(cls.getName(), toolName, descriptor);
        service = create(cls);
        return bindable(service.onBind(new Intent("mobile.mcp.SERVICE").setComponent(component)));
    }

    /**
     * Installs the app with a service that takes binding requests and never answers them, as a
     * tool stuck in a handler would.
     */
    ComponentName installUnanswering(String toolName, int descriptor) {
        return installAnswering(toolName, descriptor, msg -> true); // received, and never answered
    }

    /**
     * Installs the app with a service that hands every binding request to answer, on a thread of
     * its own: a tool that answers however it likes, as a hostile one would.
     */
    ComponentName installAnswering(String toolName, int descriptor, Handler.Callback answer) {
        register(pkg + ".RawService", toolName, descriptor);
        HandlerThread thread = new HandlerThread("raw-tool-" + pkg);
        thread.start();
        return bindable(new Messenger(new Handler(thread.getLooper(), answer)).getBinder());
    }

    private void register(String serviceClass, String toolName, int descriptor) {
        Application app = (Application) getBaseContext().getApplicationContext();
        ShadowPackageManager pm = shadowOf(app.getPackageManager());
        PackageInfo pkgInfo = new PackageInfo();
        pkgInfo.packageName = pkg;
        pkgInfo.applicationInfo = info;
        pm.installPackage(pkgInfo);
        InstalledApps.sign(app, pkg, certificate(pkg)); // every app on a phone is signed
        // getResourcesForApplication: the descriptor is among this app's test resources.
        ShadowPackageManager.resources.put(pkg, app.getResources());

        component = new ComponentName(pkg, serviceClass);
        ServiceInfo service = new ServiceInfo();
        service.packageName = pkg;
        service.name = serviceClass;
        service.exported = true;
        service.applicationInfo = info;
        service.metaData = new Bundle();
        service.metaData.putString("mobile.mcp.tool.name", toolName);
        service.metaData.putString("mobile.mcp.tool.description", toolName + ", installed next to the gateway");
        service.metaData.putInt("mobile.mcp.tool.capabilities", descriptor);
        pm.addOrUpdateService(service);
        pm.addIntentFilterForService(component, new IntentFilter("mobile.mcp.SERVICE"));
    }

    /**
     * Lets bindService reach binder, and announces the install. Robolectric gives every bindService
     * the service set last, whatever its component, unless one is set for the Intent: so each app's
     * service is set for the Intent that binds it, as an assistant writes it, and apps installed
     * side by side each get their own calls.
     */
    private ComponentName bindable(IBinder binder) {
        Application app = (Application) getBaseContext().getApplicationContext();
        shadowOf(app).setComponentNameAndServiceForBindService(component, binder);
        shadowOf(app).setComponentNameAndServiceForBindServiceForIntent(
                new Intent("mobile.mcp.SERVICE").setComponent(component), component, binder);
        app.sendBroadcast(new Intent(Intent.ACTION_PACKAGE_ADDED, Uri.fromParts("package", pkg, null)));
        return component;
    }

    /** The service, created and attached to this context as Android attaches a service to its app's. */
    private McpToolService create(Class<? extends McpToolService> cls) {
        McpToolService created = ReflectionHelpers.callConstructor(cls);
        ReflectionHelpers.callInstanceMethod(android.app.Service.class, created, "attach",
                ClassParameter.from(Context.class, this),
                ClassParameter.from(ActivityThread.class, null),
                ClassParameter.from(String.class, cls.getSimpleName()),
                ClassParameter.from(IBinder.class, null),
                ClassParameter.from(Application.class, getBaseContext().getApplicationContext()),
                ClassParameter.from(Object.class, null));
        created.onCreate();
        return created;
    }

    /** Uninstalls the app: its service and package go, and the apps that listen hear PACKAGE_REMOVED. */
    void uninstall() {
        Application app = (Application) getBaseContext().getApplicationContext();
        ShadowPackageManager pm = shadowOf(app.getPackageManager());
        pm.removeService(component);
        pm.removePackage(pkg);
        stopTool();
        app.sendBroadcast(new Intent(Intent.ACTION_PACKAGE_REMOVED, Uri.fromParts("package", pkg, null)));
    }

    /** Whether component is this app's tool service. */
    boolean serves(ComponentName component) {
        return service != null && this.component.equals(component);
    }

    /** Hands the tool service a start, as Android does when an assistant starts it with intent. */
    void start(Intent intent, int startId) {
        service.onStartCommand(intent, 0, startId);
    }

    /** Destroys the service, if it runs. */
    void stopTool() {
        if (service != null) {
            service.onDestroy();
            service = null;
        }
    }
}

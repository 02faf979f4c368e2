package io.github.mobilemcp.app;

import static org.robolectric.Shadows.shadowOf;

import android.app.Application;
import android.content.ComponentName;
import android.content.Intent;
import android.os.IBinder;
import android.os.Looper;
import android.os.Process;

import io.github.mobilemcp.intentbridge.Intentbridge;

import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.BooleanSupplier;

import org.robolectric.Robolectric;
import org.robolectric.android.controller.ServiceController;

/**
 * Plays Android's part between the client library and ToolService in tests. Robolectric records
 * startForegroundService instead of starting anything, and binds only to a binder it was given, so
 * this host runs one ToolService, hands it every recorded start ({@link #pump}), and registers its
 * Messenger for bindService; it runs McpServerService the same way. It also names this app's uid, as a device's PackageManager would.
 */
final class ToolHost implements AutoCloseable {
    static final ComponentName TOOL = new ComponentName("io.github.mobilemcp.app", ToolService.class.getName());
    static final ComponentName SERVER = new ComponentName("io.github.mobilemcp.app", McpServerService.class.getName());

    private final Application app;
    private final ServiceController<ToolService> service;
    /** McpServerService while it runs: created on its first start, destroyed when it stops itself. */
    private ServiceController<McpServerService> server;
    /** Called with each McpServerService right after its onCreate, before its first start. */
    Consumer<McpServerService> onServerCreated = server -> {};
    private int startId;
    /** How many starts the service was handed. */
    int starts;

    ToolHost(Application app) {
        this.app = app;
        shadowOf(app.getPackageManager()).setNameForUid(Process.myUid(), app.getPackageName());
        service = Robolectric.buildService(ToolService.class).create();
        IBinder binder = service.get().onBind(new Intent(Intentbridge.ServiceAction).setComponent(TOOL));
        shadowOf(app).setComponentNameAndServiceForBindService(TOOL, binder);
    }

    /**
     * Hands every start recorded so far to the service it names, as Android would: ToolService's
     * to the one ToolService, McpServerService's to a McpServerService created on its first start
     * and destroyed once it has stopped itself. Robolectric records each bindService as a start
     * too; those Intents carry no extras and are skipped.
     */
    void pump() {
        for (Intent start = shadowOf(app).getNextStartedService(); start != null; start = shadowOf(app).getNextStartedService()) {
            if (SERVER.equals(start.getComponent())) {
                if (server == null) {
                    server = Robolectric.buildService(McpServerService.class, start).create();
                    onServerCreated.accept(server.get());
                }
                server.withIntent(start).startCommand(0, ++startId);
                continue;
            }
            if (start.getExtras() == null) {
                continue; // a bindService
            }
            service.withIntent(start).startCommand(0, ++startId);
            starts++;
        }
        if (server != null && shadowOf(server.get()).isStoppedBySelf()) {
            server.destroy();
            server = null;
        }
    }

    /** The McpServerService that runs now, or null. */
    McpServerService server() {
        return server == null ? null : server.get();
    }

    /** Pumps starts and idles the main looper until cond holds, or fails after FakeAgent.WAIT_MILLIS. */
    void idleUntil(String what, BooleanSupplier cond) throws InterruptedException {
        FakeAgent.idleMainUntil(what, () -> {
            pump();
            shadowOf(Looper.getMainLooper()).idle(); // deliver what the starts posted
            return cond.getAsBoolean();
        });
    }

    /** Waits for future, keeping Android's part going meanwhile, and returns its value. */
    <T> T await(Future<T> future) throws Exception {
        idleUntil("the reply", future::isDone);
        return future.get();
    }

    @Override
    public void close() {
        if (server != null) {
            server.destroy();
        }
        service.destroy();
    }
}

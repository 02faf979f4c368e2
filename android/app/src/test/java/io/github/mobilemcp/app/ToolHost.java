package io.github.mobilemcp.app;

import static org.robolectric.Shadows.shadowOf;

import android.app.Application;
import android.content.ComponentName;
import android.content.Intent;
import android.os.IBinder;
import android.os.Looper;
import android.os.Process;

import io.github.mobilemcp.intentbridge.Intentbridge;
import io.github.mobilemcp.sdk.testing.internal.WireRule;
import org.robolectric.android.controller.ServiceController;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.BooleanSupplier;

import org.robolectric.Robolectric;

/**
 * Plays Android's part between the client library and ToolService in tests. Robolectric records
 * startForegroundService instead of starting anything, and binds only to a binder it was given, so
 * this host runs one ToolService, hands it every recorded start that names it ({@link #pump}; the
 * starts of another app's tool go to that app, {@link #serve}), and registers its Messenger for
 * bindService; it runs McpServerService the same way. It also names this app's uid, as a device's PackageManager would.
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
        // Robolectric gives a bindService the service set last, whatever its component, unless one
        // is set for its Intent: set for the Intent an assistant writes, so that a binding to this
        // app reaches ToolService when other apps' tools are installed after it (OtherApp).
        shadowOf(app).setComponentNameAndServiceForBindServiceForIntent(
                new Intent(Intentbridge.ServiceAction).setComponent(TOOL), TOOL, binder);
    }

    /** The other apps whose tool services get the starts that name them. */
    private final List<OtherApp> others = new ArrayList<>();

    /** Hands other's starts to its tool service from now on, as Android would. */
    ToolHost serve(OtherApp other) {
        others.add(other);
        return this;
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
            if (TOOL.equals(start.getComponent())) {
                service.withIntent(start).startCommand(0, ++startId);
                starts++;
                continue;
            }
            other(start.getComponent()).start(start, ++startId);
        }
        if (server != null && shadowOf(server.get()).isStoppedBySelf()) {
            server.destroy();
            server = null;
        }
    }

    /** The other app whose tool service component is. */
    private OtherApp other(ComponentName component) {
        for (OtherApp other : others) {
            if (other.serves(component)) {
                return other;
            }
        }
        throw new AssertionError("a start of " + component + ", which no app of the test serves");
    }

    /** The McpServerService that runs now, or null. */
    McpServerService server() {
        return server == null ? null : server.get();
    }

    /** Pumps starts and idles the main looper until cond holds, or fails after WireRule.WAIT_MILLIS. */
    void idleUntil(String what, BooleanSupplier cond) throws InterruptedException {
        WireRule.idleUntil(what, () -> {
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

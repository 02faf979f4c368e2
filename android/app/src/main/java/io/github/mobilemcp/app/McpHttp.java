package io.github.mobilemcp.app;

import android.content.Context;
import android.os.Handler;
import android.os.Looper;
import android.util.Base64;
import android.util.Log;

import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.smsapp.Smsapp;
import io.github.mobilemcp.sdk.internal.EngineAccess;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The MCP server on the phone (docs/reference/mcp-server.md, "Shared tools (the gateway)"): the same tools as the Intents, and the
 * other apps' tools the user shares ({@link Gateway}), served over Streamable HTTP by the SDK's
 * engine ({@link EngineAccess#bridge}). It listens on the phone's loopback, which a computer reaches
 * over USB with adb forward; on every interface, for the local network, only when the user chose
 * that ({@link #setLan}).
 *
 * <p>Off by default, and off again after a restart: the token is never saved. Turning it on makes a
 * fresh random token, which the user copies from MainActivity to the client; the server refuses
 * every request without it (401). Holding the token is the user's consent, so HTTP calls are not
 * subject to the per-app consent of Intent callers; the server has its own per-client rate limit.
 *
 * <p>{@link McpServerService} runs it: a foreground service, so that Android keeps the process
 * running and unfrozen while the user is elsewhere. The engine serves only a started tool, so that
 * service binds to {@link ToolService} while the server runs.
 *
 * <p>One per process ({@link #of}), as the server is: it outlives the screen that turned it on.
 * {@link #start} and {@link #stop} block (listening, or waiting for calls in flight), so they run
 * off the main thread, on {@link #thread}, one after the other. The screen reads {@link #token}
 * and {@link #error} and learns of changes through {@link #listen}. Safe for concurrent use.
 */
final class McpHttp {
    /**
     * Where the server listens by default: the phone's loopback. A computer reaches it over USB
     * through adb forward (mobilemcp adb connect); nothing on the network can.
     */
    static final String LOOPBACK = "127.0.0.1";
    /** Where it listens when the user chose the local network too ({@link #setLan}): every interface. */
    static final String EVERY_INTERFACE = "0.0.0.0";
    /** The private preferences entry of that choice. */
    static final String PREF_LAN = "mcp_on_lan";

    // An engine closes with its Application (in tests), and its server with it; what is left is the thread.
    private static final PerApplication<McpHttp> PROCESS = new PerApplication<>(McpHttp::new, http -> http.thread.shutdown());

    private final Context app;
    /** Where start and stop run: in order, and never on the main thread. */
    final ExecutorService thread = Executors.newSingleThreadExecutor(r -> new Thread(r, "mobile-mcp-http"));
    /** The port, other than 9531 in a test that needs a free one. */
    private int port = 9531;
    /** The token while the server runs, else null. */
    private String token;
    /** Why the last start failed, else null. */
    private String error;
    private final Handler main = new Handler(Looper.getMainLooper());
    private final List<Runnable> listeners = new CopyOnWriteArrayList<>();

    private McpHttp(Context app) {
        this.app = app;
    }

    /** The MCP server of context's process. */
    static McpHttp of(Context context) {
        return PROCESS.get(context);
    }

    /** Listens on port instead of 9531, for a test that needs a free port. */
    synchronized void setPortForTests(int port) {
        this.port = port;
    }

    /** Whether the user chose to serve on the local network too; off unless they did. */
    boolean lan() {
        return app.getSharedPreferences(Gateway.PREFS, Context.MODE_PRIVATE).getBoolean(PREF_LAN, false);
    }

    /** Serves on the local network too (from the next start), or on the loopback only. Kept across restarts. */
    void setLan(boolean on) {
        app.getSharedPreferences(Gateway.PREFS, Context.MODE_PRIVATE).edit().putBoolean(PREF_LAN, on).apply();
    }

    /** Where the server listens, or will at its next start. */
    private synchronized String address() {
        return (lan() ? EVERY_INTERFACE : LOOPBACK) + ":" + port;
    }

    /**
     * Starts the server with a new token and returns it. Throws with Go's message when it cannot
     * listen (the port is in use, for example), which {@link #error} then returns too. Runs on
     * {@link #thread}, which keeps starts and stops in order.
     */
    String start() throws Exception {
        synchronized (this) {
            if (token != null) {
                return token;
            }
            error = null;
        }
        String fresh = newToken();
        try {
            // The token is required on the loopback too: every app on the phone can reach it.
            Smsapp.serverFor(EngineAccess.bridge(app)).startHTTP(address(), fresh);
        } catch (Exception e) {
            synchronized (this) {
                error = e.getMessage();
            }
            throw e;
        }
        synchronized (this) {
            token = fresh;
        }
        Gateway.of(app).start();
        return fresh;
    }

    /**
     * Stops the server; calls in flight get a few seconds. Does nothing when it is off. Runs on
     * {@link #thread}. The token is gone at once, and the lock is not held while the engine waits
     * for those calls: the screen reads {@link #token} on the main thread, and waiting there for
     * up to 10 s would be an ANR.
     */
    void stop() {
        synchronized (this) {
            if (token == null) {
                return;
            }
            token = null;
        }
        Gateway.of(app).stop();
        try {
            Smsapp.serverFor(EngineAccess.bridge(app)).stopHTTP();
        } catch (Exception e) {
            Log.w(McpToolService.LOG_TAG, "stopping the MCP server", e);
        }
    }

    /** The token while the server runs, else null. It is never logged. */
    synchronized String token() {
        return token;
    }

    /** Why the last start failed, or null when it did not (or none was made since). */
    synchronized String error() {
        return error;
    }

    /**
     * Calls listener on the main thread after each start or stop of the server, successful or
     * not, until {@link #unlisten}.
     */
    void listen(Runnable listener) {
        listeners.add(listener);
    }

    void unlisten(Runnable listener) {
        listeners.remove(listener);
    }

    /** Tells the listeners, on the main thread, that the server started, stopped or failed to start. */
    void changed() {
        main.post(() -> {
            for (Runnable listener : listeners) {
                listener.run();
            }
        });
    }

    /** The port the server listens on, from its address. */
    synchronized String port() {
        return String.valueOf(port);
    }

    /**
     * The URLs a client can use: on the loopback, the one URL (a computer forwards it with adb);
     * on the local network, one per IPv4 address of the phone's interfaces that are up, loopback
     * excluded, and none without a network.
     */
    List<String> urls() {
        List<String> urls = new ArrayList<>();
        if (!lan()) {
            urls.add("http://" + address() + "/mcp");
            return urls;
        }
        try {
            for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (!nif.isUp() || nif.isLoopback()) {
                    continue;
                }
                for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                    if (a instanceof Inet4Address) {
                        urls.add("http://" + a.getHostAddress() + ":" + port() + "/mcp");
                    }
                }
            }
        } catch (SocketException | NullPointerException e) {
            // No interfaces at all (getNetworkInterfaces may return null): show none.
        }
        return urls;
    }

    /** 32 random bytes, Base64URL without padding: 43 characters. */
    static String newToken() {
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        return Base64.encodeToString(bytes, Base64.URL_SAFE | Base64.NO_PADDING | Base64.NO_WRAP);
    }
}

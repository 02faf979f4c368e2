package io.github.mobilemcp.app;

import android.annotation.TargetApi;
import android.app.Notification;
import android.app.NotificationManager;
import android.app.PendingIntent;
import android.app.Service;
import android.content.ComponentName;
import android.content.Context;
import android.content.Intent;
import android.content.ServiceConnection;
import android.graphics.drawable.Icon;
import android.os.Build;
import android.os.Handler;
import android.os.IBinder;
import android.os.Looper;
import android.text.TextUtils;

import io.github.mobilemcp.sdk.internal.Foreground;


import java.util.List;

/**
 * Runs the MCP server ({@link McpHttp}) as a foreground service, with an ongoing notification
 * that shows where it serves and has a Stop button. Without it, the server would live in a bare
 * app process: once the user leaves the screen, Android caches that process, freezes it (from
 * Android 11; on 14 within seconds), so clients time out, and ends it when memory runs low.
 *
 * <p>{@link #start} (MainActivity's switch) starts it with {@link #ACTION_START}; {@link #stop}
 * (the switch) and the notification's Stop send {@link #ACTION_STOP}, after which it stops the
 * server and itself. Destroyed for any reason, it stops the server. Not sticky: the token is made
 * fresh on each start and shown only on the screen, so a restart by Android would serve a token
 * nobody has; the user turns the switch on again.
 *
 * <p>The engine serves only a started tool, so the service binds to {@link ToolService} and
 * starts the server once that binding is made, on McpHttp's thread; listeners of McpHttp learn the
 * outcome. The foreground type is specialUse (declared in the manifest), passed the way every API
 * level accepts by the SDK's {@link Foreground#start}.
 */
public class McpServerService extends Service {
    /** Starts the server (if it is not running) and the service in the foreground. */
    static final String ACTION_START = "io.github.mobilemcp.app.action.START_MCP_SERVER";
    /** Stops the server and the service. */
    static final String ACTION_STOP = "io.github.mobilemcp.app.action.STOP_MCP_SERVER";
    /** The id of the ongoing notification: "mcp3", clear of the SDK's. */
    static final int NOTIFICATION_ID = 0x6d637033;
    /** Its channel (API 26+). */
    static final String CHANNEL_ID = "mobilemcp_server";

    private final ServiceConnection tool = new ServiceConnection() {
        @Override
        public void onServiceConnected(ComponentName name, IBinder service) {
            serve();
        }

        @Override
        public void onServiceDisconnected(ComponentName name) {}
    };

    private Handler main;
    private McpHttp mcp;
    /** Whether the binding to ToolService was made, and so must be undone. */
    private boolean bound;
    /** Set in onDestroy: a start that finishes later must not bring its notification back. */
    private boolean destroyed;

    /** Starts the service and the server, from a screen the user sees (Android 8+ allows it then). */
    static void start(Context context) {
        Intent start = new Intent(context, McpServerService.class).setAction(ACTION_START);
        if (Build.VERSION.SDK_INT >= 26) {
            startForeground(context, start);
        } else {
            context.startService(start);
        }
    }

    @TargetApi(26) // called only from API 26 on
    private static void startForeground(Context context, Intent start) {
        context.startForegroundService(start);
    }

    /** Stops the server and the service. */
    static void stop(Context context) {
        context.startService(stopIntent(context));
    }

    private static Intent stopIntent(Context context) {
        return new Intent(context, McpServerService.class).setAction(ACTION_STOP);
    }

    @Override
    public void onCreate() {
        super.onCreate();
        main = new Handler(Looper.getMainLooper());
        mcp = McpHttp.of(this);
    }

    @Override
    public int onStartCommand(Intent intent, int flags, int startId) {
        if (intent != null && ACTION_STOP.equals(intent.getAction())) {
            stopSelf(); // onDestroy stops the server
            return START_NOT_STICKY;
        }
        // First, as after every startForegroundService: Android waits for it.
        Foreground.start(this, NOTIFICATION_ID, notification());
        if (!bound) {
            bound = bindService(new Intent(this, ToolService.class), tool, BIND_AUTO_CREATE);
            if (!bound) {
                serve(); // cannot happen for the app's own service; the start then says what is wrong
            }
        }
        return START_NOT_STICKY;
    }

    /** Starts the server on McpHttp's thread; then shows where it serves, or stops on failure. */
    private void serve() {
        mcp.thread.execute(() -> {
            try {
                mcp.start();
            } catch (Exception e) {
                // McpHttp.error() has the reason, which MainActivity shows.
            }
            main.post(() -> {
                if (destroyed) {
                    return;
                }
                if (mcp.token() != null) {
                    getSystemService(NotificationManager.class).notify(NOTIFICATION_ID, notification());
                } else {
                    stopSelf();
                }
            });
            mcp.changed();
        });
    }

    /** The ongoing notification: where the server is reached, the screen on tap, and Stop. */
    private Notification notification() {
        CharSequence text;
        if (mcp.token() == null) {
            text = getText(R.string.mcp_http_starting);
        } else {
            List<String> urls = mcp.urls();
            text = urls.isEmpty() ? getString(R.string.mcp_http_no_network, mcp.port()) : TextUtils.join("\n", urls);
        }
        int immutable = PendingIntent.FLAG_IMMUTABLE | PendingIntent.FLAG_UPDATE_CURRENT;
        PendingIntent open = PendingIntent.getActivity(this, 0, new Intent(this, MainActivity.class), immutable);
        PendingIntent stop = PendingIntent.getService(this, 0, stopIntent(this), immutable);
        return Foreground.notificationBuilder(this, CHANNEL_ID, getText(R.string.mcp_server_channel),
                getText(R.string.mcp_server_channel_description), NotificationManager.IMPORTANCE_LOW)
                .setSmallIcon(android.R.drawable.sym_action_chat)
                .setContentTitle(getText(R.string.mcp_server_running))
                .setContentText(text)
                .setStyle(new Notification.BigTextStyle().bigText(text))
                .setCategory(Notification.CATEGORY_SERVICE)
                .setOngoing(true)
                .setContentIntent(open)
                .addAction(new Notification.Action.Builder(
                        Icon.createWithResource(this, android.R.drawable.ic_menu_close_clear_cancel),
                        getText(R.string.mcp_server_stop), stop).build())
                .build();
    }

    /** Not for binding; started only. */
    @Override
    public IBinder onBind(Intent intent) {
        return null;
    }

    @Override
    public void onDestroy() {
        destroyed = true;
        if (bound) {
            unbindService(tool);
            bound = false;
        }
        McpHttp http = mcp;
        http.thread.execute(() -> {
            http.stop();
            http.changed();
        });
        Foreground.stop(this);
        super.onDestroy();
    }
}

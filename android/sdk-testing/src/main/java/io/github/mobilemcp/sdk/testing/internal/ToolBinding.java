package io.github.mobilemcp.sdk.testing.internal;

import android.content.Context;
import android.os.Bundle;
import android.os.Handler;
import android.os.HandlerThread;
import android.os.IBinder;
import android.os.Message;
import android.os.Messenger;
import android.os.Process;
import android.os.RemoteException;

import io.github.mobilemcp.sdk.internal.BindingMessages;
import io.github.mobilemcp.sdk.internal.InternalApi;
import io.github.mobilemcp.sdk.testing.InstalledApps;

import java.util.function.Consumer;

import org.robolectric.shadows.ShadowBinder;

/**
 * Binding mode from a test, as an assistant uses it: each request a Message to the tool service's
 * Messenger, from the Binder uid of the app named as its caller, and each reply a Message back. The
 * Tool SDK names the caller from that uid, so this is how a test calls as another app (installed
 * with {@link InstalledApps} if it is not yet).
 */
@InternalApi
public final class ToolBinding implements AutoCloseable {
    private final Context context;
    private final Messenger tool;
    private final HandlerThread replyThread = new HandlerThread("mobile-mcp-test-replies");
    private final Messenger replyTo;

    /**
     * A binding to the service whose onBind returned binder. Every reply Message's data goes to
     * onReply, on the binding's own thread.
     */
    public ToolBinding(Context context, IBinder binder, Consumer<Bundle> onReply) {
        this.context = context;
        this.tool = new Messenger(binder);
        replyThread.start();
        replyTo = new Messenger(new Handler(replyThread.getLooper(), msg -> {
            onReply.accept(new Bundle(msg.getData()));
            return true;
        }));
    }

    /**
     * Sends requestJson under requestKey ({@code mobile-mcp-request}, or the prototype agent's
     * {@code request}) from callerPackage's uid.
     */
    public void send(String callerPackage, String requestKey, String requestJson) {
        Message msg = Message.obtain(null, BindingMessages.MSG_INVOKE);
        Bundle data = new Bundle();
        data.putString(requestKey, requestJson);
        msg.setData(data);
        msg.replyTo = replyTo;
        // Binder stamps the Message with the sender's uid; the SDK asks the PackageManager its name.
        ShadowBinder.setCallingUid(InstalledApps.uidOf(context, callerPackage));
        try {
            tool.send(msg);
        } catch (RemoteException e) {
            throw new AssertionError("the tool's Messenger refused the request", e);
        } finally {
            ShadowBinder.setCallingUid(Process.myUid());
        }
    }

    @Override
    public void close() {
        replyThread.quitSafely();
    }
}

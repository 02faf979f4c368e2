package io.github.mobilemcp.sdk;

import android.Manifest;
import android.annotation.TargetApi;
import android.app.Activity;
import android.content.pm.PackageManager;
import android.os.Build;
import android.os.SystemClock;
import android.util.Log;
import android.view.MotionEvent;
import android.view.View;
import android.view.ViewTreeObserver;

import java.util.Map;
import java.util.WeakHashMap;

import org.jspecify.annotations.Nullable;

/**
 * Makes a control that grants something accept only taps the user meant: none through or under
 * another app's window (tapjacking: an overlay that shows one thing while the tap lands on Allow),
 * and none in the first moments after the control's window appears or comes back to the front,
 * when a tap meant for what was there before would land on it.
 *
 * <p>The moments after a touch through or under another window count as such too, for every
 * guarded control of the window: an overlay that catches one tap and then goes away leaves the
 * user's next tap, meant for the overlay, landing on Allow.
 *
 * <p>The SDK guards its own Allow, Deny, Revoke and developer-switch controls with it; use it on
 * any control of yours that grants an app something.
 */
public final class TouchGuard {
    /**
     * How long after its window appears, gets the focus back, or is touched through or under
     * another window, a guarded control ignores taps.
     */
    public static final long SETTLE_MILLIS = 500;

    /** MotionEvent.FLAG_WINDOW_IS_PARTIALLY_OBSCURED (API 29; a constant, so safe on older levels). */
    private static final int PARTIALLY_OBSCURED = MotionEvent.FLAG_WINDOW_IS_PARTIALLY_OBSCURED;

    /**
     * When each window's guarded controls were last armed, in SystemClock.uptimeMillis(), by the
     * window's root view. Main thread only; a window that is gone is forgotten.
     */
    private static final Map<View, long[]> ARMED = new WeakHashMap<>();

    /** The windows, by root view, whose guarded controls settle after every touch. Main thread only. */
    private static final Map<View, Boolean> SETTLE_AFTER_TOUCH = new WeakHashMap<>();

    private TouchGuard() {}

    /**
     * Guards control: touches while another window covers it, wholly or in part, and touches within
     * {@link #SETTLE_MILLIS} of its window appearing, or of a touch through or under another window
     * on any guarded control of its window, are dropped. It replaces the control's
     * OnTouchListener, which drops them: Android's own filter ({@code filterTouchesWhenObscured})
     * would drop a touch through another window before the guard could see it and rearm. Clicks made
     * without a touch (accessibility services, keyboards) still work.
     */
    public static void protect(View control) {
        Guard guard = new Guard();
        control.addOnAttachStateChangeListener(guard);
        if (control.isAttachedToWindow()) {
            guard.onViewAttachedToWindow(control);
        }
        control.setOnTouchListener(guard);
    }

    private static boolean obscured(MotionEvent event) {
        return (event.getFlags() & (MotionEvent.FLAG_WINDOW_IS_OBSCURED | PARTIALLY_OBSCURED)) != 0;
    }

    /** Makes the guarded controls of view's window ignore taps for SETTLE_MILLIS from at. */
    private static void arm(View view, long at) {
        View window = view.getRootView();
        long[] armed = ARMED.get(window);
        if (armed == null) {
            ARMED.put(window, new long[] {at});
        } else {
            armed[0] = Math.max(armed[0], at);
        }
    }

    /**
     * Whether a guarded control in view's window refuses event: one through or under another
     * window, which arms the whole window again, or one too soon after the window was armed.
     */
    static boolean refuses(View view, MotionEvent event) {
        if (obscured(event)) {
            arm(view, event.getEventTime());
            return true;
        }
        long[] armed = ARMED.get(view.getRootView());
        return armed != null && event.getEventTime() - armed[0] < SETTLE_MILLIS;
    }

    /**
     * Sees a touch of a screen that shows guarded controls, before the view it lands on: one
     * through or under another window makes the window's guarded controls ignore taps for
     * {@link #SETTLE_MILLIS}, wherever it lands, on text as on a button. Call it first in the
     * screen's {@code Activity.dispatchTouchEvent}, on the main thread, as the SDK's own screens do;
     * without it only a touch on a guarded control itself is seen.
     */
    public static void screenTouched(Activity screen, MotionEvent event) {
        if (obscured(event)) {
            arm(screen.getWindow().getDecorView(), event.getEventTime());
        }
    }

    /**
     * Makes the guarded controls of screen's window ignore taps for {@link #SETTLE_MILLIS} after the
     * end of every touch on them, as after the window appears: for the consent screen, which the
     * calling app may open in the middle of a burst of taps, so that no tap of the burst counts.
     * Touches elsewhere on the screen are the screen's to report ({@link #touchEnded}). Main thread,
     * once its content is set.
     */
    static void settleAfterEveryTouch(Activity screen) {
        SETTLE_AFTER_TOUCH.put(screen.getWindow().getDecorView(), Boolean.TRUE);
    }

    /**
     * Sees the end of a touch on screen, after its views saw it: on a screen that
     * {@link #settleAfterEveryTouch settles after every touch}, its guarded controls ignore taps
     * for {@link #SETTLE_MILLIS} from then. Main thread.
     */
    static void touchEnded(Activity screen, MotionEvent event) {
        settleIfEnded(screen.getWindow().getDecorView(), event);
    }

    /** Arms view's window at the end of event, a touch, when the window settles after every touch. */
    private static void settleIfEnded(View view, MotionEvent event) {
        int action = event.getActionMasked();
        if ((action == MotionEvent.ACTION_UP || action == MotionEvent.ACTION_CANCEL) && SETTLE_AFTER_TOUCH.containsKey(view.getRootView())) {
            arm(view, event.getEventTime());
        }
    }

    /**
     * Keeps other apps' overlays off the screen while it shows, from API 31, where
     * {@code Window.setHideOverlayWindows} exists: a touch never goes through one, so a guard is
     * not needed to see it; below API 31 it does nothing. Call it in {@code onCreate} of a screen
     * of your own that shows a {@link ToolSettingsView} or another control that grants access, as
     * the SDK's own screens do. The SDK's manifest declares the normal permission it needs; an app
     * whose build removed it gets a warning in logcat, and the guards alone.
     */
    public static void hideOverlays(Activity screen) {
        if (Build.VERSION.SDK_INT >= 31) {
            hideOverlaysFrom31(screen);
        }
    }

    @TargetApi(31) // called only from API 31 on
    private static void hideOverlaysFrom31(Activity screen) {
        if (screen.checkSelfPermission(Manifest.permission.HIDE_OVERLAY_WINDOWS) != PackageManager.PERMISSION_GRANTED) {
            Log.w(McpToolService.LOG_TAG, screen.getClass().getSimpleName() + " cannot hide other apps' overlays: the app lacks "
                    + Manifest.permission.HIDE_OVERLAY_WINDOWS + ", which the Tool SDK's manifest declares; keep it in the merged manifest");
            return;
        }
        screen.getWindow().setHideOverlayWindows(true);
    }

    private static final class Guard implements View.OnTouchListener, View.OnAttachStateChangeListener,
            ViewTreeObserver.OnWindowFocusChangeListener {
        private @Nullable View attached;

        @Override
        public boolean onTouch(View v, MotionEvent event) {
            boolean refused = refuses(v, event); // true consumes the event: no click
            settleIfEnded(v, event); // after this touch was judged: it rearms for the next one
            return refused;
        }

        @Override
        public void onViewAttachedToWindow(View v) {
            attached = v;
            arm(v, SystemClock.uptimeMillis());
            v.getViewTreeObserver().addOnWindowFocusChangeListener(this);
        }

        @Override
        public void onViewDetachedFromWindow(View v) {
            v.getViewTreeObserver().removeOnWindowFocusChangeListener(this);
            attached = null;
        }

        @Override
        public void onWindowFocusChanged(boolean hasFocus) {
            if (hasFocus && attached != null) {
                arm(attached, SystemClock.uptimeMillis());
            }
        }
    }
}

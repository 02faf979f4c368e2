package io.github.mobilemcp.sdk;

import android.os.SystemClock;
import android.view.MotionEvent;
import android.view.View;
import android.view.ViewTreeObserver;

import org.jspecify.annotations.Nullable;

/**
 * Makes a control that grants something accept only taps the user meant: none through or under
 * another app's window (tapjacking: an overlay that shows one thing while the tap lands on Allow),
 * and none in the first moments after the control's window appears or comes back to the front,
 * when a tap meant for what was there before would land on it.
 *
 * <p>The SDK guards its own Allow, Deny, Revoke and developer-switch controls with it; use it on
 * any control of yours that grants an app something.
 */
public final class TouchGuard {
    /** How long after its window appears, or gets the focus back, a guarded control ignores taps. */
    public static final long SETTLE_MILLIS = 500;

    /** MotionEvent.FLAG_WINDOW_IS_PARTIALLY_OBSCURED (API 29; a constant, so safe on older levels). */
    private static final int PARTIALLY_OBSCURED = MotionEvent.FLAG_WINDOW_IS_PARTIALLY_OBSCURED;

    private TouchGuard() {}

    /**
     * Guards control: touches while another window covers it, wholly or in part, and touches within
     * {@link #SETTLE_MILLIS} of its window appearing are dropped. It replaces the control's
     * OnTouchListener. Clicks made without a touch (accessibility services, keyboards) still work.
     */
    public static void protect(View control) {
        control.setFilterTouchesWhenObscured(true);
        Guard guard = new Guard();
        control.addOnAttachStateChangeListener(guard);
        if (control.isAttachedToWindow()) {
            guard.onViewAttachedToWindow(control);
        }
        control.setOnTouchListener(guard);
    }

    /** Whether a touch event at eventTime, in a window that appeared (or got focus) at shownAt, is refused. */
    static boolean refuses(MotionEvent event, long shownAt) {
        if ((event.getFlags() & (MotionEvent.FLAG_WINDOW_IS_OBSCURED | PARTIALLY_OBSCURED)) != 0) {
            return true;
        }
        return event.getEventTime() - shownAt < SETTLE_MILLIS;
    }

    private static final class Guard implements View.OnTouchListener, View.OnAttachStateChangeListener,
            ViewTreeObserver.OnWindowFocusChangeListener {
        /** When the window appeared or got the focus back, in SystemClock.uptimeMillis(). */
        private long shownAt = SystemClock.uptimeMillis();
        private @Nullable View attached;

        @Override
        public boolean onTouch(View v, MotionEvent event) {
            return refuses(event, shownAt); // true consumes the event: no click
        }

        @Override
        public void onViewAttachedToWindow(View v) {
            shownAt = SystemClock.uptimeMillis();
            attached = v;
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
                shownAt = SystemClock.uptimeMillis();
            }
        }
    }
}

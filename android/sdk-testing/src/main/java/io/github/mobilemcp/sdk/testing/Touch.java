package io.github.mobilemcp.sdk.testing;

import static org.robolectric.Shadows.shadowOf;

import android.app.Activity;
import android.os.Looper;
import android.os.SystemClock;
import android.view.MotionEvent;
import android.view.View;

import java.util.function.Predicate;

/**
 * Touches as a finger makes them, for testing screens guarded by {@link
 * io.github.mobilemcp.sdk.TouchGuard}: down then up at the top left corner of a view or a screen,
 * marked with {@link MotionEvent}'s window flags, as Android marks a touch. Pass 0 for a clear
 * touch, {@link MotionEvent#FLAG_WINDOW_IS_OBSCURED} for one through another app's overlay, and
 * {@link MotionEvent#FLAG_WINDOW_IS_PARTIALLY_OBSCURED} for one under part of it. Each runs what the
 * main looper has queued afterwards, so a click has run when it returns. Call on the main thread.
 */
public final class Touch {
    private Touch() {}

    /** Touches view, down then up, marked with flags. */
    public static void tap(View view, int flags) {
        dispatch(view::dispatchTouchEvent, flags);
    }

    /** Touches the screen's window, down then up, marked with flags, before any view sees it. */
    public static void tap(Activity screen, int flags) {
        dispatch(screen::dispatchTouchEvent, flags);
    }

    private static void dispatch(Predicate<MotionEvent> target, int flags) {
        long now = SystemClock.uptimeMillis();
        for (int action : new int[] {MotionEvent.ACTION_DOWN, MotionEvent.ACTION_UP}) {
            MotionEvent.PointerProperties finger = new MotionEvent.PointerProperties();
            finger.toolType = MotionEvent.TOOL_TYPE_FINGER;
            MotionEvent.PointerCoords corner = new MotionEvent.PointerCoords();
            corner.x = 1;
            corner.y = 1;
            MotionEvent event = MotionEvent.obtain(now, now, action, 1, new MotionEvent.PointerProperties[] {finger},
                    new MotionEvent.PointerCoords[] {corner}, 0, 0, 1, 1, 0, 0, 0, flags);
            target.test(event);
            event.recycle();
        }
        shadowOf(Looper.getMainLooper()).idle(); // a click runs posted
    }
}

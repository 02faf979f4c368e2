package io.github.mobilemcp.app;

import android.content.Context;

import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Holds the one T of the process, such as the SMS platform, made from the application context on
 * first use. On a device there is one Application per process, so one T. A test framework that makes
 * an Application per test (Robolectric) gets one per test; the previous test's is closed.
 */
final class PerApplication<T> {
    private final Function<Context, T> make;
    private final Consumer<T> close;
    private Context app;
    private T value;

    PerApplication(Function<Context, T> make, Consumer<T> close) {
        this.make = make;
        this.close = close;
    }

    /** The T of context's Application. */
    synchronized T get(Context context) {
        Context current = context.getApplicationContext();
        if (value == null || app != current) {
            if (value != null) {
                close.accept(value);
            }
            app = current;
            value = make.apply(current);
        }
        return value;
    }
}

package androidx.test.platform.app;

import android.app.Instrumentation;
import android.os.Bundle;

/**
 * Stand-in for the androidx.test:monitor class of the same name (an AAR on Google's Maven only).
 * Robolectric's AndroidTestEnvironment and RoboMonitoringInstrumentation call registerInstance
 * while setting up every test; nothing else in these tests reads it back.
 */
public final class InstrumentationRegistry {
    private static volatile Instrumentation instrumentation;
    private static volatile Bundle arguments = new Bundle();

    private InstrumentationRegistry() {}

    public static void registerInstance(Instrumentation instr, Bundle args) {
        instrumentation = instr;
        arguments = args == null ? new Bundle() : new Bundle(args);
    }

    public static Instrumentation getInstrumentation() {
        if (instrumentation == null) {
            throw new IllegalStateException("no Instrumentation registered; is this a Robolectric test?");
        }
        return instrumentation;
    }

    public static Bundle getArguments() {
        return new Bundle(arguments);
    }
}

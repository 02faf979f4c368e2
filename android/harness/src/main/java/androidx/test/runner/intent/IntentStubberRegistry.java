package androidx.test.runner.intent;

/**
 * Stand-in (androidx.test:monitor). RoboMonitoringInstrumentation.stubResultFor calls isLoaded for
 * every activity start, which Activity.requestPermissions is; nothing registers a stubber here, so
 * it is false and no result is faked.
 */
public final class IntentStubberRegistry {
    private static volatile IntentStubber instance;

    private IntentStubberRegistry() {}

    public static void load(IntentStubber stubber) {
        instance = stubber;
    }

    public static boolean isLoaded() {
        return instance != null;
    }

    public static IntentStubber getInstance() {
        if (instance == null) {
            throw new IllegalStateException("no IntentStubber loaded");
        }
        return instance;
    }
}

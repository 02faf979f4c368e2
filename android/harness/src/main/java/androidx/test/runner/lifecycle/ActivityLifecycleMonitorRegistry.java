package androidx.test.runner.lifecycle;

/** Stand-in (androidx.test:monitor): RoboMonitoringInstrumentation registers its monitor here. */
public final class ActivityLifecycleMonitorRegistry {
    private static volatile ActivityLifecycleMonitor instance;

    private ActivityLifecycleMonitorRegistry() {}

    public static void registerInstance(ActivityLifecycleMonitor monitor) {
        instance = monitor;
    }

    public static ActivityLifecycleMonitor getInstance() {
        if (instance == null) {
            throw new IllegalStateException("no ActivityLifecycleMonitor registered");
        }
        return instance;
    }
}

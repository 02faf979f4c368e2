package androidx.test.runner.lifecycle;

/** Stand-in (androidx.test:monitor): RoboMonitoringInstrumentation registers its monitor here. */
public final class ApplicationLifecycleMonitorRegistry {
    private static volatile ApplicationLifecycleMonitor instance;

    private ApplicationLifecycleMonitorRegistry() {}

    public static void registerInstance(ApplicationLifecycleMonitor monitor) {
        instance = monitor;
    }

    public static ApplicationLifecycleMonitor getInstance() {
        if (instance == null) {
            throw new IllegalStateException("no ApplicationLifecycleMonitor registered");
        }
        return instance;
    }
}

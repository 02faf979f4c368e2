package androidx.test.runner.lifecycle;

/** Stand-in (androidx.test:monitor): Robolectric only registers an instance; no methods are called. */
public interface ApplicationLifecycleMonitor {}

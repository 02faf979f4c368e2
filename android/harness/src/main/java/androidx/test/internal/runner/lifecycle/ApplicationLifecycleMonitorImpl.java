package androidx.test.internal.runner.lifecycle;

import android.app.Application;
import androidx.test.runner.lifecycle.ApplicationLifecycleMonitor;
import androidx.test.runner.lifecycle.ApplicationStage;

/** Stand-in (androidx.test:monitor): told about Application.onCreate; remembers the last stage. */
public final class ApplicationLifecycleMonitorImpl implements ApplicationLifecycleMonitor {
    private volatile ApplicationStage lastStage;

    public ApplicationLifecycleMonitorImpl() {}

    public void signalLifecycleChange(Application app, ApplicationStage stage) {
        lastStage = stage;
    }

    public ApplicationStage getLastStage() {
        return lastStage;
    }
}

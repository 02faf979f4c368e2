package androidx.test.internal.runner.lifecycle;

import android.app.Activity;
import androidx.test.runner.lifecycle.ActivityLifecycleCallback;
import androidx.test.runner.lifecycle.ActivityLifecycleMonitor;
import androidx.test.runner.lifecycle.Stage;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Stand-in (androidx.test:monitor). RoboMonitoringInstrumentation creates one per test and calls
 * signalLifecycleChange for every activity transition. A small, honest implementation: it
 * remembers each activity's last stage and notifies callbacks.
 */
public final class ActivityLifecycleMonitorImpl implements ActivityLifecycleMonitor {
    private final Map<Activity, Stage> stages = new WeakHashMap<>();
    private final List<ActivityLifecycleCallback> callbacks = new CopyOnWriteArrayList<>();

    public ActivityLifecycleMonitorImpl() {}

    public void signalLifecycleChange(Stage stage, Activity activity) {
        synchronized (stages) {
            stages.put(activity, stage);
        }
        for (ActivityLifecycleCallback callback : callbacks) {
            callback.onActivityLifecycleChanged(activity, stage);
        }
    }

    @Override
    public void addLifecycleCallback(ActivityLifecycleCallback callback) {
        callbacks.add(callback);
    }

    @Override
    public void removeLifecycleCallback(ActivityLifecycleCallback callback) {
        callbacks.remove(callback);
    }

    @Override
    public Stage getLifecycleStageOf(Activity activity) {
        synchronized (stages) {
            Stage stage = stages.get(activity);
            if (stage == null) {
                throw new IllegalArgumentException("unknown activity: " + activity);
            }
            return stage;
        }
    }

    @Override
    public Collection<Activity> getActivitiesInStage(Stage stage) {
        List<Activity> out = new ArrayList<>();
        synchronized (stages) {
            for (Map.Entry<Activity, Stage> e : stages.entrySet()) {
                if (e.getValue() == stage) {
                    out.add(e.getKey());
                }
            }
        }
        return out;
    }
}

package androidx.test.runner.intent;

import android.app.Instrumentation;
import android.content.Intent;

/**
 * Stand-in (androidx.test:monitor): Espresso-Intents' hook for faking activity results. Only named
 * by RoboMonitoringInstrumentation.stubResultFor, which asks the registry first (see there).
 */
public interface IntentStubber {
    Instrumentation.ActivityResult getActivityResultForIntent(Intent intent);
}

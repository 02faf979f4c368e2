package androidx.test.internal.runner.intent;

import android.content.Intent;
import androidx.test.runner.intent.IntentMonitor;

/** Stand-in (androidx.test:monitor): RoboMonitoringInstrumentation calls signalIntent for started activities. */
public final class IntentMonitorImpl implements IntentMonitor {
    public IntentMonitorImpl() {}

    public void signalIntent(Intent intent) {
        // Nobody listens in these tests (Espresso-Intents would).
    }
}

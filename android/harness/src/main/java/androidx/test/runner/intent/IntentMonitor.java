package androidx.test.runner.intent;

/** Stand-in (androidx.test:monitor): Robolectric registers an IntentMonitorImpl; no methods are called through this type. */
public interface IntentMonitor {}

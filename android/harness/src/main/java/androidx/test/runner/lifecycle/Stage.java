package androidx.test.runner.lifecycle;

/** Stand-in (androidx.test:monitor): activity lifecycle stages that Robolectric reports. */
public enum Stage {
    PRE_ON_CREATE,
    CREATED,
    STARTED,
    RESUMED,
    PAUSED,
    STOPPED,
    RESTARTED,
    DESTROYED
}

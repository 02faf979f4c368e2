package androidx.test.runner.lifecycle;

/** Stand-in (androidx.test:monitor): RoboMonitoringInstrumentation.callApplicationOnCreate reports these. */
public enum ApplicationStage {
    PRE_ON_CREATE,
    CREATED
}

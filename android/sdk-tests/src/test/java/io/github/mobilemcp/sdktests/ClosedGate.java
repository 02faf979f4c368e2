package io.github.mobilemcp.sdktests;

import org.junit.rules.ExternalResource;

/**
 * Closes the hold capability's {@link Gate} for a test and opens it after, so that no held worker
 * outlives the test. Declare it inside the tool rule, so that it opens the gate before the services
 * go: {@code @Rule(order = 1) public final ClosedGate gate = new ClosedGate();}.
 */
final class ClosedGate extends ExternalResource {
    @Override
    protected void before() {
        Gate.close();
    }

    @Override
    protected void after() {
        Gate.open();
    }
}

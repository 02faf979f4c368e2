package io.github.mobilemcp.client;

/** Why a service that answers {@code mobile.mcp.SERVICE} was skipped by discovery. */
public final class DiscoveryProblem {
    private final String packageName;
    private final String serviceName;
    private final String reason;

    DiscoveryProblem(String packageName, String serviceName, String reason) {
        this.packageName = packageName;
        this.serviceName = serviceName;
        this.reason = reason;
    }

    /** The app of the skipped service. */
    public String packageName() {
        return packageName;
    }

    /** The skipped service's class name. */
    public String serviceName() {
        return serviceName;
    }

    /** What is wrong with it, in words meant for its developer. */
    public String reason() {
        return reason;
    }

    @Override
    public String toString() {
        return packageName + "/" + serviceName + ": " + reason;
    }
}

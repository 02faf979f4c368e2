package io.github.mobilemcp.client;

import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A Mobile-MCP tool found by {@link MobileMcpClient#discover}: a service in some app, with the name
 * and description from its meta-data and the capabilities from its descriptor (the Mobile-MCP spec §1.1).
 */
public final class Tool {
    private final String packageName;
    private final String serviceName;
    private final String name;
    private final String description;
    private final List<Capability> capabilities;

    Tool(String packageName, String serviceName, String name, String description, List<Capability> capabilities) {
        this.packageName = packageName;
        this.serviceName = serviceName;
        this.name = name;
        this.description = description;
        this.capabilities = Collections.unmodifiableList(capabilities);
    }

    /** The app that offers the tool. */
    public String packageName() {
        return packageName;
    }

    /** The service's class name, which invocations name explicitly. */
    public String serviceName() {
        return serviceName;
    }

    /** The human-readable name ({@code mobile.mcp.tool.name}). */
    public String name() {
        return name;
    }

    /** What the tool does ({@code mobile.mcp.tool.description}). */
    public String description() {
        return description;
    }

    /** The capabilities, in descriptor order. */
    public List<Capability> capabilities() {
        return capabilities;
    }

    /** The capability with this id, or null. */
    public @Nullable Capability capability(String id) {
        for (Capability c : capabilities) {
            if (c.id().equals(id)) {
                return c;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return packageName + "/" + serviceName;
    }
}

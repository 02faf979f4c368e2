package io.github.mobilemcp.client;

import java.util.Collections;
import java.util.List;

/** What {@link MobileMcpClient#discover} found: the usable tools, and why others were skipped. */
public final class Discovery {
    private final List<Tool> tools;
    private final List<DiscoveryProblem> problems;

    Discovery(List<Tool> tools, List<DiscoveryProblem> problems) {
        this.tools = Collections.unmodifiableList(tools);
        this.problems = Collections.unmodifiableList(problems);
    }

    /** The tools whose meta-data and descriptor could be read. */
    public List<Tool> tools() {
        return tools;
    }

    /** One entry per service that was skipped, with the reason. */
    public List<DiscoveryProblem> problems() {
        return problems;
    }
}

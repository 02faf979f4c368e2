package io.github.mobilemcp.client;

/** One input or output parameter of a {@link Capability}, as its descriptor declares it. */
public final class Param {
    private final String name;
    private final String type;
    private final boolean required;
    private final String description;

    Param(String name, String type, boolean required, String description) {
        this.name = name;
        this.type = type;
        this.required = required;
        this.description = description;
    }

    /** The parameter's name. */
    public String name() {
        return name;
    }

    /**
     * The type: string, integer, number, boolean, object or array. A synonym in the descriptor
     * (int, long, float, double, bool) is given as the type it stands for.
     */
    public String type() {
        return type;
    }

    /** Whether an input parameter must be given; always false for an output. */
    public boolean required() {
        return required;
    }

    /** The description, or "" when the descriptor has none. */
    public String description() {
        return description;
    }

    @Override
    public String toString() {
        return name + ":" + type + (required ? " (required)" : "");
    }
}

package io.github.mobilemcp.client;

/** One input or output parameter of a {@link Capability}, as its descriptor declares it. */
public final class Param {
    private final String name;
    private final String type;
    private final boolean required;
    private final String description;
    private final int maxLength;
    private final String pattern;
    private final String items;

    Param(String name, String type, boolean required, String description, int maxLength, String pattern, String items) {
        this.name = name;
        this.type = type;
        this.required = required;
        this.description = description;
        this.maxLength = maxLength;
        this.pattern = pattern;
        this.items = items;
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

    /**
     * The most characters a string input may have ({@code mcp:maxLength}), or 0 for no limit. The
     * tool rejects a longer argument.
     */
    public int maxLength() {
        return maxLength;
    }

    /**
     * The regular expression a string input should match ({@code mcp:pattern}), or "". It is
     * advice for building the argument: the tool may accept, and normalise, other forms.
     */
    public String pattern() {
        return pattern;
    }

    /**
     * The type of an array's elements ({@code mcp:items}), such as "string", or "" when they may be
     * anything or this is not an array. The tool rejects an element of another type.
     */
    public String items() {
        return items;
    }

    @Override
    public String toString() {
        return name + ":" + type + (required ? " (required)" : "");
    }
}

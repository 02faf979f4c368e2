package io.github.mobilemcp.client;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One capability of a {@link Tool}, from its descriptor (the Mobile-MCP spec §1.2): the id to invoke, what it
 * does, its parameters, and the behaviour hints that mobilemcp writes as attributes in its own
 * namespace ({@value #HINTS_NAMESPACE}, prefix {@code mcp:}), which other tools may leave out.
 */
public final class Capability {
    /** The XML namespace of mobilemcp's title and behaviour-hint attributes. */
    public static final String HINTS_NAMESPACE = "https://mobilemcp.github.io/ns";

    private final String id;
    private final String description;
    private final String version;
    private final List<Param> inputs;
    private final List<Param> outputs;
    private final @Nullable String title;
    private final Hints hints;
    private final long timeoutMillis;

    /**
     * What a capability's descriptor says of its behaviour ({@code mcp:readOnly},
     * {@code mcp:destructive}, {@code mcp:idempotent}, {@code mcp:openWorld}, as MCP's tool
     * annotations), each null where the descriptor does not say. Immutable.
     */
    public static final class Hints {
        private final @Nullable Boolean readOnly;
        private final @Nullable Boolean destructive;
        private final @Nullable Boolean idempotent;
        private final @Nullable Boolean openWorld;

        Hints(@Nullable Boolean readOnly, @Nullable Boolean destructive, @Nullable Boolean idempotent, @Nullable Boolean openWorld) {
            this.readOnly = readOnly;
            this.destructive = destructive;
            this.idempotent = idempotent;
            this.openWorld = openWorld;
        }

        /** Whether it changes nothing ({@code mcp:readOnly}), or null. */
        public @Nullable Boolean readOnly() {
            return readOnly;
        }

        /** Whether what it changes cannot be undone ({@code mcp:destructive}), or null. */
        public @Nullable Boolean destructive() {
            return destructive;
        }

        /** Whether a second call with the same arguments changes nothing more ({@code mcp:idempotent}), or null. */
        public @Nullable Boolean idempotent() {
            return idempotent;
        }

        /** Whether it reaches beyond the phone, such as the network or other people ({@code mcp:openWorld}), or null. */
        public @Nullable Boolean openWorld() {
            return openWorld;
        }

        @Override
        public String toString() {
            return "readOnly=" + readOnly + " destructive=" + destructive + " idempotent=" + idempotent + " openWorld=" + openWorld;
        }
    }

    Capability(String id, String description, String version, List<Param> inputs, List<Param> outputs,
            @Nullable String title, @Nullable Boolean readOnly, @Nullable Boolean destructive,
            @Nullable Boolean idempotent, @Nullable Boolean openWorld, long timeoutMillis) {
        this.id = id;
        this.description = description;
        this.version = version;
        this.inputs = Collections.unmodifiableList(inputs);
        this.outputs = Collections.unmodifiableList(outputs);
        this.title = title;
        this.hints = new Hints(readOnly, destructive, idempotent, openWorld);
        this.timeoutMillis = timeoutMillis;
    }

    /** The id to invoke, unique within its tool. */
    public String id() {
        return id;
    }

    /** What the capability does, for the model; "" when the descriptor has none. */
    public String description() {
        return description;
    }

    /** The capability's version, or "". */
    public String version() {
        return version;
    }

    /** The input parameters, in descriptor order. */
    public List<Param> inputs() {
        return inputs;
    }

    /** The output parameters, in descriptor order. */
    public List<Param> outputs() {
        return outputs;
    }

    /** The display title ({@code mcp:title}), or null. */
    public @Nullable String title() {
        return title;
    }

    /** The behaviour hints of the descriptor. */
    public Hints hints() {
        return hints;
    }

    /**
     * The tool's own deadline for one call ({@code mcp:timeout}) in milliseconds, or 0 when the
     * descriptor does not say, and the tool's default applies (30 s for a mobilemcp tool). When it
     * passes, the tool answers with error_code timeout. The client's timeout is another one: see
     * {@link Request#withTimeoutMillis(long)}.
     */
    public long timeoutMillis() {
        return timeoutMillis;
    }

    /** Whether the capability may change something: its descriptor does not say {@code mcp:readOnly="true"}. */
    public boolean changesState() {
        return !Boolean.TRUE.equals(hints.readOnly);
    }

    /**
     * The capability as an MCP tool definition, to hand to a model: exactly the JSON that
     * {@code mobilemcp tools} (the Go descriptor package) writes for one capability, key order
     * included.
     * <ul>
     *   <li>{@code name} is the capability id. When two tools offer the same id, give one of them
     *       another name before handing both to a model, and map it back when the model calls it.
     *   <li>{@code inputSchema} is JSON Schema 2020-12 with the inputs as properties in descriptor
     *       order, {@code required} always present, and {@code additionalProperties: false}. Every
     *       array has {@code items}: the {@code mcp:items} type, or {} for any value.
     *   <li>{@code annotations} has all four hints. One the descriptor leaves out takes MCP's
     *       default, which assumes the worst: destructive and open-world, neither read-only nor
     *       idempotent.
     * </ul>
     */
    public JSONObject toMcpTool() {
        try {
            JSONObject properties = new JSONObject();
            JSONArray required = new JSONArray();
            for (Param p : inputs) {
                JSONObject property = new JSONObject().put("type", p.type());
                if (p.type().equals("array")) {
                    property.put("items", items(p.items()));
                }
                if (!p.description().isEmpty()) {
                    property.put("description", p.description());
                }
                if (p.maxLength() > 0) {
                    property.put("maxLength", p.maxLength());
                }
                if (!p.pattern().isEmpty()) {
                    property.put("pattern", p.pattern());
                }
                properties.put(p.name(), property);
                if (p.required()) {
                    required.put(p.name());
                }
            }
            JSONObject tool = new JSONObject().put("name", id);
            if (title != null && !title.isEmpty()) {
                tool.put("title", title);
            }
            // What leaves the client holds nothing hidden, whatever made it.
            return HiddenText.visible(tool
                    .put("description", description)
                    .put("inputSchema", new JSONObject()
                            .put("type", "object")
                            .put("properties", properties)
                            .put("required", required)
                            .put("additionalProperties", false))
                    .put("annotations", new JSONObject()
                            .put("readOnlyHint", or(hints.readOnly, false))
                            .put("destructiveHint", or(hints.destructive, true))
                            .put("idempotentHint", or(hints.idempotent, false))
                            .put("openWorldHint", or(hints.openWorld, true))));
        } catch (JSONException e) {
            throw new IllegalStateException("cannot happen: only strings and booleans are put", e);
        }
    }

    /**
     * The JSON Schema items of an array whose elements are of type, or {} for any value when type is
     * "": every array has items, because models' function calling refuses one without them. An
     * array of arrays has items in turn.
     */
    private static JSONObject items(String type) throws JSONException {
        JSONObject items = new JSONObject();
        if (!type.isEmpty()) {
            items.put("type", type);
        }
        if (type.equals("array")) {
            items.put("items", new JSONObject());
        }
        return items;
    }

    private static boolean or(@Nullable Boolean hint, boolean dflt) {
        return hint == null ? dflt : hint;
    }

    @Override
    public String toString() {
        return id + inputs;
    }
}

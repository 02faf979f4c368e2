package io.github.mobilemcp.client;

import io.github.mobilemcp.ErrorCode;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The capabilities of the discovered tools as a model's functions: each under a name that every
 * model's function calling accepts ({@link #NAME}, unique in the catalog), mapped back to its tool
 * and capability when the model calls it, with a description that names the app and says in words
 * whether the function only reads or what it changes, and exported in the shapes of OpenAI's,
 * Anthropic's and Gemini's APIs (marked {@link ProviderFormatApi}: they follow the providers, and
 * Kotlin callers opt in to them).
 *
 * <pre>{@code
 * ToolCatalog catalog = ToolCatalog.of(client.discover().tools());
 * JSONArray tools = catalog.openAiStrictTools();    // hand to the model
 * // the model calls "send_sms" with arguments:
 * ToolCatalog.Entry f = catalog.entry("send_sms");
 * Request request = f.request(client, arguments);  // keep it: sending it again is a safe retry
 * JSONObject forModel = f.result(request.send().get());
 * }</pre>
 *
 * <p><b>Names.</b> A capability keeps its id when that is a valid name and no other tool has it;
 * otherwise it is named after its app too, such as {@code notes_create_note}: the shortest end of
 * the package (its last segments) that tells the apps apart, then the id, with every character
 * that a name may not hold made {@code _}, cut to 64 with a hash of the package and id at the end
 * when longer. A name made from a package, which Android vouches for, wins over an id that spells
 * it: an app whose capability is called {@code notes_create_note} is named after its own package
 * instead, whichever app was installed first. A name that two capabilities would still share goes
 * to neither (each gets the hash at its end). So a name changes only when a tool that offers the
 * same id, or spells the name, comes or goes, and never with the order of the tools.
 *
 * <p><b>Schemas.</b> MCP's JSON Schema ({@link Capability#toMcpTool()}) where a provider takes it
 * (OpenAI without strict mode, Anthropic); for OpenAI's strict mode every property is required,
 * an optional one nullable (a null argument counts as absent), and for strict mode and Gemini an
 * object parameter, or an array of objects or of anything, is a string that holds its JSON (the
 * tool reads such a string as the JSON it holds), because neither takes a free-form object.
 * Gemini gets no {@code additionalProperties}, and no parameters at all for a function without
 * any. Every array has {@code items}.
 */
public final class ToolCatalog {
    /** The function names that OpenAI's and Anthropic's function calling accept. */
    public static final Pattern NAME = Pattern.compile("^[a-zA-Z0-9_-]{1,64}$");
    private static final int MAX_NAME = 64;

    private final List<Entry> entries;
    private final Map<String, Entry> byName = new HashMap<>();

    private ToolCatalog(List<Entry> entries) {
        this.entries = Collections.unmodifiableList(entries);
        for (Entry e : entries) {
            byName.put(e.name, e);
        }
    }

    /**
     * The catalog of every capability of tools, in their order and their descriptors' order. The
     * names do not depend on that order (see the class comment).
     */
    public static ToolCatalog of(List<Tool> tools) {
        Map<String, List<Tool>> withId = new HashMap<>();
        List<Tool> ordered = new ArrayList<>();
        List<Capability> capabilities = new ArrayList<>();
        for (Tool tool : tools) {
            for (Capability c : tool.capabilities()) {
                withId.computeIfAbsent(c.id(), k -> new ArrayList<>()).add(tool);
                ordered.add(tool);
                capabilities.add(c);
            }
        }
        int n = capabilities.size();
        // A name from the package, which Android vouches for, where another tool offers the same id
        // or the id is no valid name; the id alone otherwise.
        String[] names = new String[n];
        boolean[] bareName = new boolean[n];
        Set<String> qualifiedNames = new HashSet<>();
        for (int i = 0; i < n; i++) {
            Capability c = capabilities.get(i);
            bareName[i] = withId.get(c.id()).size() == 1 && bare(c.id());
            names[i] = bareName[i] ? c.id() : qualified(ordered.get(i), c, withId.get(c.id()));
            if (!bareName[i]) {
                qualifiedNames.add(names[i]);
            }
        }
        // A name from a package wins over an id: an app cannot take another's name by choosing an id
        // that spells it.
        for (int i = 0; i < n; i++) {
            if (bareName[i] && qualifiedNames.contains(names[i])) {
                names[i] = qualified(ordered.get(i), capabilities.get(i), Collections.singletonList(ordered.get(i)));
            }
        }
        // A name that two capabilities would still share goes to neither: each gets a hash of its
        // package and id at the end.
        Map<String, Integer> uses = new HashMap<>();
        for (String name : names) {
            uses.merge(name, 1, Integer::sum);
        }
        for (int i = 0; i < n; i++) {
            if (uses.get(names[i]) > 1) {
                names[i] = hashed(names[i], ordered.get(i), capabilities.get(i));
                bareName[i] = false;
            }
        }
        // An id that spells one of those hashed names is named after its own package, with its own hash.
        Set<String> fromPackages = new HashSet<>();
        for (int i = 0; i < n; i++) {
            if (!bareName[i]) {
                fromPackages.add(names[i]);
            }
        }
        for (int i = 0; i < n; i++) {
            if (bareName[i] && fromPackages.contains(names[i])) {
                Capability c = capabilities.get(i);
                names[i] = hashed(qualified(ordered.get(i), c, Collections.singletonList(ordered.get(i))), ordered.get(i), c);
            }
        }
        // Two equal hashes, which only a search for one makes: the first in the order of package and
        // id keeps the name, and the others get a number.
        Integer[] byPackage = new Integer[n];
        for (int i = 0; i < n; i++) {
            byPackage[i] = i;
        }
        java.util.Arrays.sort(byPackage, (a, b) -> {
            int cmp = ordered.get(a).packageName().compareTo(ordered.get(b).packageName());
            return cmp != 0 ? cmp : capabilities.get(a).id().compareTo(capabilities.get(b).id());
        });
        Set<String> taken = new HashSet<>();
        for (int i : byPackage) {
            String unique = names[i];
            for (int k = 2; !taken.add(unique); k++) {
                unique = cut(names[i], ("_" + k).length()) + "_" + k;
            }
            names[i] = unique;
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            entries.add(new Entry(names[i], ordered.get(i), capabilities.get(i)));
        }
        return new ToolCatalog(entries);
    }

    /** Whether id may be a function's name as it is: a valid name that starts as Gemini wants (a letter or _). */
    private static boolean bare(String id) {
        return NAME.matcher(id).matches() && (Character.isLetter(id.charAt(0)) || id.charAt(0) == '_');
    }

    /** c's name after the shortest end of tool's package that no other tool of sharing ends with. */
    private static String qualified(Tool tool, Capability c, List<Tool> sharing) {
        String[] segments = tool.packageName().split("\\.");
        String app = tool.packageName();
        for (int k = 1; k <= segments.length; k++) {
            StringBuilder joined = new StringBuilder();
            for (int i = segments.length - k; i < segments.length; i++) {
                joined.append(joined.length() == 0 ? "" : ".").append(segments[i]);
            }
            String end = joined.toString();
            boolean alone = true;
            for (Tool other : sharing) {
                if (other != tool && (other.packageName().equals(end) || other.packageName().endsWith("." + end))) {
                    alone = false;
                }
            }
            if (alone) {
                app = end;
                break;
            }
        }
        String name = clean(app + "_" + c.id());
        if (!Character.isLetter(name.charAt(0)) && name.charAt(0) != '_') {
            name = "_" + name;
        }
        return name.length() > MAX_NAME ? hashed(name, tool, c) : name;
    }

    /** name cut to leave room for 8 hex digits of the SHA-256 of c's package and id, and ending in them. */
    private static String hashed(String name, Tool tool, Capability c) {
        String hash = sha256Hex(tool.packageName() + "/" + c.id()).substring(0, 8);
        return cut(name, hash.length() + 1) + "_" + hash;
    }

    /** text with every character a name may not hold made _. */
    private static String clean(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i);
            boolean ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '-';
            out.append(ok ? ch : '_');
        }
        return out.toString();
    }

    /** name shortened so that room more characters fit in a name. */
    private static String cut(String name, int room) {
        return name.length() + room <= MAX_NAME ? name : name.substring(0, MAX_NAME - room);
    }

    private static String sha256Hex(String text) {
        try {
            byte[] sum = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            StringBuilder hex = new StringBuilder();
            for (byte b : sum) {
                hex.append(String.format(java.util.Locale.ROOT, "%02x", b));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java has SHA-256", e);
        }
    }

    /** Every function, in the order of {@link #of}. */
    public List<Entry> entries() {
        return entries;
    }

    /** The function named name, as the model calls it, or null when the catalog has none. */
    public @Nullable Entry entry(String name) {
        return byName.get(name);
    }

    /**
     * The functions as OpenAI's Chat Completions API takes them in {@code tools}:
     * {@code {"type":"function","function":{"name":..,"description":..,"parameters":..,"strict":false}}},
     * parameters in MCP's JSON Schema.
     */
    @ProviderFormatApi
    public JSONArray openAiTools() {
        return openAi(false);
    }

    /**
     * The functions as {@link #openAiTools()} gives them, in OpenAI's strict mode ({@code "strict":true}):
     * every property required, an optional one nullable, and a free-form object written as a
     * string that holds its JSON (see the class comment).
     */
    @ProviderFormatApi
    public JSONArray openAiStrictTools() {
        return openAi(true);
    }

    private JSONArray openAi(boolean strict) {
        JSONArray out = new JSONArray();
        for (Entry e : entries) {
            JSONObject function = new JSONObject();
            put(function, "name", e.name);
            put(function, "description", e.description());
            put(function, "parameters", strict ? e.schema(Dialect.OPENAI_STRICT) : e.schema(Dialect.JSON_SCHEMA));
            put(function, "strict", strict);
            JSONObject tool = new JSONObject();
            put(tool, "type", "function");
            put(tool, "function", function);
            out.put(tool);
        }
        return out;
    }

    /** The functions as Anthropic's Messages API takes them in {@code tools}: {@code {"name","description","input_schema"}}. */
    @ProviderFormatApi
    public JSONArray anthropicTools() {
        JSONArray out = new JSONArray();
        for (Entry e : entries) {
            JSONObject tool = new JSONObject();
            put(tool, "name", e.name);
            put(tool, "description", e.description());
            put(tool, "input_schema", e.schema(Dialect.JSON_SCHEMA));
            out.put(tool);
        }
        return out;
    }

    /**
     * The functions as Gemini's API takes them in a tool's {@code functionDeclarations}:
     * {@code {"name","description","parameters"}}, parameters in Gemini's Schema, left out for a
     * function without any.
     */
    @ProviderFormatApi
    public JSONArray geminiFunctionDeclarations() {
        JSONArray out = new JSONArray();
        for (Entry e : entries) {
            JSONObject declaration = new JSONObject();
            put(declaration, "name", e.name);
            put(declaration, "description", e.description());
            if (!e.capability.inputs().isEmpty()) {
                put(declaration, "parameters", e.schema(Dialect.GEMINI));
            }
            out.put(declaration);
        }
        return out;
    }

    private static void put(JSONObject o, String name, @Nullable Object value) {
        try {
            o.put(name, value);
        } catch (JSONException e) {
            throw new IllegalStateException("cannot happen: a name and a JSON value", e);
        }
    }

    /** Which provider a schema is for. */
    private enum Dialect { JSON_SCHEMA, OPENAI_STRICT, GEMINI }

    /** One function of the catalog: its name, and the tool and capability it calls. */
    public static final class Entry {
        private final String name;
        private final Tool tool;
        private final Capability capability;

        Entry(String name, Tool tool, Capability capability) {
            this.name = name;
            this.tool = tool;
            this.capability = capability;
        }

        /** The function's name for the model. */
        public String name() {
            return name;
        }

        /** The tool that offers it. */
        public Tool tool() {
            return tool;
        }

        /** The capability it calls. */
        public Capability capability() {
            return capability;
        }

        /**
         * What the model reads: the capability's description, then the app it is in, named by its
         * package (which Android vouches for, and no other app can have; never by the label the
         * app chose), and in words whether it only reads or what it changes, such as {@code Saves
         * a new note and returns its id. [In the app com.example.notes. It changes something, and
         * destroys nothing; the first time, the user is asked to allow this assistant.]}.
         */
        public String description() {
            StringBuilder d = new StringBuilder(capability.description().trim());
            if (d.length() > 0) {
                d.append(' ');
            }
            d.append("[In the app ").append(tool.packageName()).append(". ");
            if (!capability.changesState()) {
                d.append("Read-only: it changes nothing.");
            } else {
                d.append(Boolean.FALSE.equals(capability.hints().destructive())
                        ? "It changes something, and destroys nothing" : "It changes something that cannot be undone");
                d.append("; the first time, the user is asked to allow this assistant.");
                if (Boolean.TRUE.equals(capability.hints().idempotent())) {
                    d.append(" Calling it again with the same arguments has no further effect.");
                }
            }
            return d.append(']').toString();
        }

        /**
         * The request for the model's call with arguments (its JSON object, null for none), as
         * {@link MobileMcpClient#request} makes it: keep it, and send it again to retry.
         */
        public Request request(MobileMcpClient client, @Nullable JSONObject arguments) {
            return client.request(tool, capability.id(), arguments);
        }

        /** The input schema for dialect. */
        JSONObject schema(Dialect dialect) {
            JSONObject mcp = capability.toMcpTool().optJSONObject("inputSchema");
            if (dialect == Dialect.JSON_SCHEMA) {
                return mcp;
            }
            JSONObject properties = new JSONObject();
            JSONArray required = new JSONArray();
            for (Param p : capability.inputs()) {
                JSONObject property = mcp.optJSONObject("properties").optJSONObject(p.name());
                boolean asText = p.type().equals("object")
                        || (p.type().equals("array") && (p.items().isEmpty() || p.items().equals("object") || p.items().equals("array")));
                if (asText) {
                    property = new JSONObject();
                    put(property, "type", "string");
                    String what = p.type().equals("object") ? "a JSON object" : "a JSON array";
                    put(property, "description", (p.description().isEmpty() ? "" : p.description() + " ") + "(" + what + ", written as a string)");
                }
                if (dialect == Dialect.OPENAI_STRICT) {
                    if (!p.required()) {
                        put(property, "type", new JSONArray().put(property.optString("type")).put("null"));
                    }
                    required.put(p.name());
                } else if (p.required()) {
                    required.put(p.name());
                }
                put(properties, p.name(), property);
            }
            JSONObject schema = new JSONObject();
            put(schema, "type", "object");
            put(schema, "properties", properties);
            put(schema, "required", required);
            if (dialect == Dialect.OPENAI_STRICT) {
                put(schema, "additionalProperties", false);
            }
            return schema;
        }

        /**
         * The function result for the model of a reply from this function: the outcome, its
         * outputs (their strings without the characters nobody sees) or error_code (only a code
         * this library knows: an app's own is left out) and message, and whether calling the function again is safe,
         * that is, cannot do anything twice ({@code retry_safe}), with what to do in words
         * ({@code retry}).
         */
        public JSONObject result(Reply reply) {
            JSONObject r = new JSONObject();
            put(r, "status", reply.isSuccess() ? "success" : "failure");
            if (reply.message() != null) {
                put(r, "message", reply.message());
            }
            if (reply.isSuccess()) {
                JSONObject outputs = new JSONObject();
                for (Map.Entry<String, @Nullable Object> o : reply.outputs().entrySet()) {
                    put(outputs, HiddenText.strip(o.getKey()), visible(o.getValue()));
                }
                put(r, "outputs", outputs);
                return r;
            }
            ErrorCode code = reply.errorCode();
            if (code != null && code != ErrorCode.OTHER) {
                put(r, "error_code", code.wireName());
            }
            boolean nothingRan = code != null && code.nothingRan();
            put(r, "retry_safe", nothingRan || !capability.changesState());
            put(r, "retry", advice(code, reply.retryAfterMillis()));
            return r;
        }

        /**
         * value, an output as org.json reads it, with every string in it (keys included) without
         * the characters nobody sees: the model reads it.
         */
        private static Object visible(@Nullable Object value) {
            if (value == null) {
                return JSONObject.NULL;
            }
            if (value instanceof String) {
                return HiddenText.strip((String) value);
            }
            if (value instanceof JSONObject) {
                JSONObject in = (JSONObject) value;
                JSONObject out = new JSONObject();
                for (java.util.Iterator<String> keys = in.keys(); keys.hasNext(); ) {
                    String key = keys.next();
                    put(out, HiddenText.strip(key), visible(in.opt(key)));
                }
                return out;
            }
            if (value instanceof JSONArray) {
                JSONArray in = (JSONArray) value;
                JSONArray out = new JSONArray();
                for (int i = 0; i < in.length(); i++) {
                    out.put(visible(in.opt(i)));
                }
                return out;
            }
            return value;
        }

        private String advice(@Nullable ErrorCode code, @Nullable Long retryAfterMillis) {
            if (code == null || code == ErrorCode.OTHER) {
                return capability.changesState()
                        ? "It may have been done. Do not call it again before checking with the user." : "Calling it again is harmless.";
            }
            switch (code) {
                case CONSENT_REQUIRED:
                    return "Nothing was done. The app is asking the user to allow this assistant; call it again once they have.";
                case PERMISSION_DENIED:
                    return "Nothing was done, and calling it again will not help: the user or the phone refused it.";
                case RATE_LIMITED:
                    return "Nothing was done. Call it again " + (retryAfterMillis == null
                            ? "later." : "in " + (retryAfterMillis + 999) / 1000 + " seconds.");
                case INVALID_ARGUMENTS:
                case INVALID_REQUEST:
                case UNKNOWN_CAPABILITY:
                case UNSUPPORTED_VERSION:
                    return "Nothing was done. Fix what the message says, then call it again.";
                case TOO_LARGE:
                    return capability.changesState()
                            ? "The request or its reply was over the size limit, as the message says. If the request was, nothing"
                                    + " was done: make it smaller. If the reply was, it was done: do not call it again before checking"
                                    + " with the user."
                            : "Nothing was changed. If the request was over the size limit, make it smaller and call it again.";
                default:
                    return capability.changesState()
                            ? "It may have been done, or part of it. Do not call it again before checking with the user."
                            : "Nothing was changed; calling it again is harmless.";
            }
        }

        /**
         * The function result for the model when the call failed without a reply: the client's
         * timeout ({@link CallTimeoutException}), an unreachable tool, or anything else. After a
         * timeout the assistant, not the model, retries: sending the same {@link Request} again
         * gets the tool's reply and never runs it twice.
         */
        public JSONObject result(Throwable error) {
            JSONObject r = new JSONObject();
            boolean unsent = error instanceof MobileMcpException && ((MobileMcpException) error).nothingRan();
            put(r, "status", unsent ? "failure" : "unknown");
            put(r, "message", String.valueOf(error.getMessage()));
            put(r, "retry_safe", unsent || !capability.changesState());
            put(r, "retry", unsent ? "Nothing was done: the app could not be reached. Calling it again is safe."
                    : !capability.changesState() ? "Calling it again is harmless."
                    : "It may have been done. Do not call it again with new arguments; the assistant retries this same request, which never runs twice.");
            return r;
        }

        @Override
        public String toString() {
            return name + " -> " + tool.packageName() + "/" + capability.id();
        }
    }
}

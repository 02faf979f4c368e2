package io.github.mobilemcp.ksp

import java.io.StringReader
import javax.xml.stream.XMLInputFactory
import javax.xml.stream.XMLStreamConstants
import javax.xml.stream.XMLStreamException
import javax.xml.stream.XMLStreamReader

/**
 * A capability descriptor (`mcp_capabilities.xml`) as the processor reads it: its capabilities,
 * each with the line of its start tag, and the errors that make the engine refuse it. It is read
 * as the Go engine and `mobilemcp lint` read it (engine/descriptor), with the same error rules
 * and messages; the warnings are lint's alone.
 */
class Descriptor(
    /** The capabilities, in file order. */
    val capabilities: List<Capability>,
    /** The errors, in line order; a descriptor with any is one the engine refuses. */
    val errors: List<Finding>,
) {
    companion object {
        /** The namespace of mobilemcp's extension attributes (`mcp:readOnly`, `mcp:items`, ...). */
        const val NAMESPACE = "https://mobilemcp.github.io/ns"

        /** Reads the descriptor [text]. */
        fun read(text: String): Descriptor = DescriptorReader(text).read()
    }
}

/** One `<capability>`. */
class Capability(
    val id: String,
    /** The line of its start tag. */
    val line: Int,
    val input: List<Param>,
    val output: List<Param>,
)

/** One `<param>` of an `<input>` or `<output>`. */
class Param(
    val name: String,
    /** The canonical type (a synonym such as `int` resolved), or the type as written when unknown. */
    val type: String,
    /** `mcp:items` of an array param, canonical, or null. */
    val items: String?,
    /** For an input param: `required="true"`. */
    val required: Boolean,
    /** The line of its start tag. */
    val line: Int,
)

/** A problem with the descriptor, as `mobilemcp lint` reports it: `line: message [rule]`. */
data class Finding(val line: Int, val rule: String, val message: String) {
    override fun toString() = "$line: $message [$rule]"
}

/** The descriptor's types, in the order messages list them, and the synonyms the engine reads. */
internal object Types {
    val canonical = listOf("string", "integer", "number", "boolean", "object", "array")
    val synonyms = mapOf("int" to "integer", "long" to "integer", "float" to "number", "double" to "number", "bool" to "boolean")
    val list = canonical.joinToString(", ")

    /** The canonical type [name] stands for, or null. */
    fun parse(name: String): String? = if (name in canonical) name else synonyms[name]
}

/** Go's %q for the strings of messages: quoted, with `"` and `\` escaped. */
internal fun q(s: String): String = "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\""

/**
 * The candidate closest to [got], ignoring case, when it is close enough to be a typo: fewer
 * edits than a third of its length, plus one (the rule of `mobilemcp lint`'s suggestions).
 */
internal fun closest(got: String, candidates: Collection<String>): String? {
    var best: String? = null
    var bestDist = got.length / 3 + 1
    for (c in candidates) {
        val d = editDistance(got.lowercase(), c.lowercase())
        if (d < bestDist) {
            best = c
            bestDist = d
        }
    }
    return best
}

private fun editDistance(a: String, b: String): Int {
    var prev = IntArray(b.length + 1) { it }
    var cur = IntArray(b.length + 1)
    for (i in 1..a.length) {
        cur[0] = i
        for (j in 1..b.length) {
            val cost = if (a[i - 1] == b[j - 1]) 0 else 1
            cur[j] = minOf(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
        }
        val t = prev; prev = cur; cur = t
    }
    return prev[b.length]
}

private fun didYouMean(got: String, candidates: Collection<String>, otherwise: String) =
    closest(got, candidates)?.let { "did you mean $it?" } ?: otherwise

/** An element as StAX read it, with the lines of its start tag and of each attribute. */
private class Element(
    val prefix: String,
    val name: String,
    /** The namespace of its prefix, "" for none. */
    val space: String,
    val line: Int,
    /** Attributes in document order: full key (`mcp:items`) to value. */
    val attrs: LinkedHashMap<String, String>,
    val attrLines: Map<String, Int>,
    /** The namespace of each attribute's prefix, by full key; absent for unprefixed ones. */
    val attrSpaces: Map<String, String?>,
) {
    val children = mutableListOf<Element>()
    val fullTag get() = if (prefix.isEmpty()) name else "$prefix:$name"

    /** Whether this is the format's element [tag], which is in no namespace. */
    fun isTag(tag: String) = prefix.isEmpty() && space.isEmpty() && name == tag

    /** The value of the unprefixed attribute [key]. */
    fun attr(key: String): String? = attrs[key]

    /** The extension attribute [key] in [Descriptor.NAMESPACE], as (full key, value). */
    fun ext(key: String): Pair<String, String>? = attrs.entries.firstOrNull { (k, _) ->
        k.substringAfter(':') == key && k.contains(':') && attrSpaces[k] == Descriptor.NAMESPACE
    }?.let { it.key to it.value }

    fun lineOf(key: String) = attrLines[key] ?: line
}

/** The reader: StAX for the XML, then the rules of engine/descriptor/read.go. */
private class DescriptorReader(private val text: String) {
    private val findings = mutableListOf<Finding>()

    fun read(): Descriptor {
        val stripped = text.removePrefix("\uFEFF").trimStart(' ', '\t', '\r', '\n')
        if (stripped.isEmpty() || stripped[0] != '<') {
            return Descriptor(emptyList(), listOf(Finding(1, "not-descriptor", "the file is not XML; a capability descriptor is an XML file whose root element is <$ROOT>")))
        }
        val root = try {
            parse()
        } catch (e: XMLStreamException) {
            val line = e.location?.lineNumber ?: 1
            val msg = (e.message ?: "").substringAfter("Message: ").trim()
            return Descriptor(emptyList(), listOf(Finding(line, "xml-syntax", "the file is not well-formed XML: $msg")))
        }
        val caps = mutableListOf<Capability>()
        val problem = checkRoot(root)
        if (problem == null || problem.rule == "root-element") {
            problem?.let { findings += it }
            caps += descriptor(root)
        } else {
            findings += problem
        }
        return Descriptor(caps, findings.sortedBy { it.line })
    }

    /** Parses the text into elements. Namespaces are resolved here, so that an unbound prefix
     *  is a finding of the rules, as in Go, and not a parse error. */
    private fun parse(): Element {
        val factory = XMLInputFactory.newInstance()
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false)
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false)
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false)
        factory.setProperty(XMLInputFactory.IS_COALESCING, false)
        val r = factory.createXMLStreamReader(StringReader(text))
        val stack = ArrayDeque<Element>()
        val scopes = ArrayDeque<Map<String, String>>()
        var root: Element? = null
        try {
            // StAX places an event at its end; a start tag begins where the event before it ended.
            var startLine = r.location.lineNumber.coerceAtLeast(1)
            var startOffset = if (r.location.lineNumber < 1) 0 else r.location.characterOffset
            while (r.hasNext()) {
                val event = r.next()
                if (event == XMLStreamConstants.START_ELEMENT) {
                    val e = element(r, startLine, startOffset, scopes)
                    stack.lastOrNull()?.children?.add(e)
                    if (root == null) root = e
                    stack.addLast(e)
                } else if (event == XMLStreamConstants.END_ELEMENT) {
                    stack.removeLast()
                    scopes.removeLast()
                }
                startLine = r.location.lineNumber
                startOffset = r.location.characterOffset
            }
        } finally {
            r.close()
        }
        return root!!
    }

    private fun element(r: XMLStreamReader, line: Int, offset: Int, scopes: ArrayDeque<Map<String, String>>): Element {
        val scope = HashMap(scopes.lastOrNull() ?: emptyMap())
        val attrs = LinkedHashMap<String, String>()
        for (i in 0 until r.attributeCount) {
            val key = r.getAttributeName(i).let { if (it.prefix.isNullOrEmpty()) it.localPart else "${it.prefix}:${it.localPart}" }
            when {
                key == "xmlns" -> scope[""] = r.getAttributeValue(i)
                key.startsWith("xmlns:") -> scope[key.removePrefix("xmlns:")] = r.getAttributeValue(i)
                else -> attrs[key] = r.getAttributeValue(i)
            }
        }
        for (i in 0 until r.namespaceCount) { // in case the parser reports xmlns apart
            scope[r.getNamespacePrefix(i) ?: ""] = r.getNamespaceURI(i) ?: ""
        }
        scopes.addLast(scope)
        val qname = r.name.let { if (it.prefix.isNullOrEmpty()) it.localPart else "${it.prefix}:${it.localPart}" }
        val prefix = if (qname.contains(':')) qname.substringBefore(':') else ""
        val name = qname.substringAfter(':')
        val attrSpaces = attrs.keys.associateWith { k -> if (k.contains(':')) scope[k.substringBefore(':')] else null }
        val (tagLine, attrLines) = lines(line, offset, attrs.keys)
        return Element(prefix, name, scope[prefix] ?: "", tagLine, attrs, attrLines, attrSpaces)
    }

    /**
     * The line of the start tag that follows [offset], where the event before it ended on [line],
     * and the line of each of its attributes: a tag may span lines, and a finding about an
     * attribute is on the attribute's line, as lint's.
     */
    private fun lines(line: Int, offset: Int, keys: Collection<String>): Pair<Int, Map<String, Int>> {
        if (offset < 0 || offset > text.length) return line to emptyMap()
        val tagStart = text.indexOf('<', offset).let { if (it < 0) offset else it }
        val startLine = line + newlines(offset, tagStart)
        val tagEnd = text.indexOf('>', tagStart).let { if (it < 0) text.length else it }
        val tag = text.substring(tagStart, tagEnd)
        return startLine to keys.associateWith { k ->
            val at = Regex("\\s" + Regex.escape(k) + "\\s*=").find(tag)?.range?.first ?: 0
            startLine + tag.substring(0, at).count { it == '\n' }
        }
    }

    private fun newlines(from: Int, to: Int) = (from until to).count { text[it] == '\n' }

    private fun at(line: Int, rule: String, message: String) {
        findings += Finding(line, rule, message)
    }

    private fun checkRoot(root: Element): Finding? = when {
        root.isTag(ROOT) -> null
        root.name == ROOT && root.prefix.isEmpty() ->
            Finding(root.line, "root-element", "the root element <$ROOT> is in the namespace ${q(root.space)}, and the format's elements are in none; remove its xmlns")
        root.name == ROOT || root.children.any { it.isTag(CAPABILITY) } ->
            Finding(root.line, "root-element", "the root element is <${root.fullTag}>; rename it to <$ROOT>, the name the Mobile-MCP spec §1.2.1 requires")
        root.isTag("manifest") ->
            Finding(root.line, "not-descriptor", "the root element is <manifest>: this is an AndroidManifest.xml, not a capability descriptor; use the file its mobile.mcp.tool.capabilities meta-data names")
        else ->
            Finding(root.line, "not-descriptor", "the root element is <${root.fullTag}>, so this is neither a capability descriptor (<$ROOT>) nor an AndroidManifest.xml (<manifest>)")
    }

    private fun descriptor(root: Element): List<Capability> {
        val version = root.attr("version")
        when {
            version == null -> at(root.line, "root-version", "<${root.fullTag}> has no version attribute; add version=\"1.0\"")
            version != "1.0" -> at(root.lineOf("version"), "root-version", "<${root.fullTag}> has version=${q(version)}, but this is the format of Mobile-MCP 1.0; write version=\"1.0\"")
        }
        val first = HashMap<String, Int>()
        val caps = mutableListOf<Capability>()
        for (e in root.children) {
            if (!e.isTag(CAPABILITY)) continue
            val c = capability(e)
            val dup = first[c.id]
            if (dup != null) {
                at(e.lineOf("id"), "duplicate-id", "capability id ${q(c.id)} is already used at line $dup; give each capability its own id")
            } else if (c.id.isNotEmpty()) {
                first[c.id] = c.line
            }
            caps += c
        }
        return caps
    }

    private fun capability(e: Element): Capability {
        var what = "<capability>"
        val id = need(e, "id", what)
        if (id.isNotEmpty()) what = "capability ${q(id)}"
        need(e, "description", what)
        need(e, "version", what)
        for (key in HINTS) e.ext(key)?.let { (full, v) -> boolean(e, full, v, what) }
        e.ext("timeout")?.let { (full, v) ->
            val d = goDurationNanos(v)
            if (d == null || d <= 0 || d > 600_000_000_000L) {
                at(e.lineOf(full), "extension-value", "$what has $full=${q(v)}; write a duration from 1ms to 10m, such as $full=\"60s\" or $full=\"500ms\"")
            }
        }
        val sections = arrayOfNulls<Element>(2)
        val input = mutableListOf<Param>()
        val output = mutableListOf<Param>()
        for (child in e.children) {
            val i = when {
                child.isTag("input") -> 0
                child.isTag("output") -> 1
                else -> continue
            }
            val firstSection = sections[i]
            if (firstSection != null) {
                at(child.line, "duplicate-element", "$what has a second <${child.name}>; the first is at line ${firstSection.line}, so move these params into it")
            } else {
                sections[i] = child
            }
            params(child, if (i == 0) input else output, i == 0)
        }
        return Capability(id, e.line, input, output)
    }

    private fun params(section: Element, list: MutableList<Param>, input: Boolean) {
        val kind = section.name
        val first = HashMap<String, Int>()
        list.forEach { first.putIfAbsent(it.name, it.line) }
        for (e in section.children) {
            if (!e.isTag("param")) continue
            var what = "an $kind <param>"
            val name = need(e, "name", what)
            if (name.isNotEmpty()) {
                what = "$kind param ${q(name)}"
                val dup = first[name]
                if (dup != null) {
                    at(e.lineOf("name"), "duplicate-param", "$what is already declared at line $dup; rename or remove one")
                } else {
                    first[name] = e.line
                }
            }
            val type = paramType(e, need(e, "type", what), what)
            var required = false
            if (input) {
                val v = need(e, "required", what)
                if (v.isNotBlank()) required = boolean(e, "required", v, what)
            }
            need(e, "description", what)
            if (input) {
                for (key in listOf("maxLength", "pattern")) {
                    val (full, v) = typedExt(e, key, type, "string", what) ?: continue
                    if (key == "maxLength") {
                        val n = v.toIntOrNull()
                        if (n == null || n <= 0) {
                            at(e.lineOf(full), "extension-value", "$what has $full=${q(v)}; write a whole number of characters above 0, such as $full=\"160\"")
                        }
                    } else {
                        checkPattern(e, full, v, what)
                    }
                }
            }
            var items: String? = null
            typedExt(e, "items", type, "array", what)?.let { (full, v) ->
                val t = Types.parse(v)
                when {
                    t == null -> at(e.lineOf(full), "extension-value", "$what has $full=${q(v)}, which is not a descriptor type; " +
                        didYouMean(v, Types.canonical, "write one of ${Types.list}, such as $full=\"string\""))
                    t != v -> at(e.lineOf(full), "extension-value", "$what has $full=${q(v)}; write $full=${q(t)}, the name JSON Schema knows")
                    else -> items = t
                }
            }
            list += Param(name, type, items, required, e.line)
        }
    }

    private fun checkPattern(e: Element, full: String, v: String, what: String) {
        val unseen = v.codePoints().filter { isUnseen(it) }.findFirst()
        if (unseen.isPresent) {
            at(e.lineOf(full), "extension-value", "$what has $full=${q(v)}, which has a character that is not shown (U+%04X); a pattern reaches the model as it is, so write it in characters the user sees".format(unseen.asInt))
            return
        }
        val problem = if (v.isEmpty()) "it is empty" else try {
            // RE2/J, RE2's syntax as the engine's Go regexp takes it, and Go's words when it is not.
            com.google.re2j.Pattern.compile(v); null
        } catch (x: com.google.re2j.PatternSyntaxException) {
            x.message
        }
        if (problem != null) at(e.lineOf(full), "extension-value", "$what has $full=${q(v)}, which is not a regular expression: $problem")
    }

    /** The extension attribute [key] of [e], which applies to params of [applies] only. */
    private fun typedExt(e: Element, key: String, type: String, applies: String, what: String): Pair<String, String>? {
        val a = e.ext(key) ?: return null
        if (type != applies) {
            at(e.lineOf(a.first), "extension-value", "$what has ${a.first}, which applies to $applies params only, and its type is ${q(type)}; remove it")
            return null
        }
        return a
    }

    private fun paramType(e: Element, name: String, what: String): String {
        if (name.isEmpty()) return ""
        return Types.parse(name) ?: run {
            at(e.lineOf("type"), "unknown-type", "$what has type ${q(name)}, which is not a descriptor type; " +
                didYouMean(name, Types.canonical, "use one of ${Types.list}"))
            name
        }
    }

    private fun boolean(e: Element, key: String, v: String, what: String): Boolean = when (v) {
        "true" -> true
        "false" -> false
        else -> {
            at(e.lineOf(key), "boolean-value", "$what has $key=${q(v)}; write $key=\"true\" or $key=\"false\"")
            false
        }
    }

    /** The attribute [key] the spec requires, reported when absent or empty (a description only warns). */
    private fun need(e: Element, key: String, what: String): String {
        val v = e.attr(key)
        when {
            v == null -> at(e.line, "missing-attribute", "$what has no $key attribute; add ${ATTR_FIX[key]}")
            v.isNotBlank() || key == "description" -> {}
            else -> at(e.lineOf(key), "missing-attribute", "$what has an empty $key attribute; set ${ATTR_FIX[key]}")
        }
        return v ?: ""
    }

    companion object {
        const val ROOT = "mobile-mcp-capabilities"
        const val CAPABILITY = "capability"
        val HINTS = listOf("readOnly", "destructive", "idempotent", "openWorld")
        val ATTR_FIX = mapOf(
            "id" to "a unique id such as id=\"send_sms\"",
            "description" to "description=\"…\" in plain words; the model reads it to choose and call capabilities",
            "version" to "version=\"1.0\"",
            "name" to "name=\"…\" with the argument name",
            "type" to "type=\"string\" or another of ${Types.list}",
            "required" to "required=\"true\" or required=\"false\"",
        )
    }
}

/** Whether [c] has no place in a pattern: a character a font does not draw (the Go engine's text.IsUnseen). */
private fun isUnseen(c: Int): Boolean {
    val type = Character.getType(c)
    return type == Character.FORMAT.toInt() || type == Character.CONTROL.toInt() || type == Character.PRIVATE_USE.toInt() ||
        c in 0xFE00..0xFE0F || c in 0xE0100..0xE01EF || c in 0x180B..0x180F ||
        c == 0x115F || c == 0x1160 || c == 0x3164 || c == 0xFFA0 || c == 0x034F || c in 0xE0000..0xE0FFF || c == 0x2800 ||
        c in 0x2000..0x200A || c == 0x205F || c == 0x3000
}

/** Go's time.ParseDuration, in nanoseconds, or null when [s] is not a duration. */
internal fun goDurationNanos(s: String): Long? {
    val units = mapOf("ns" to 1.0, "us" to 1e3, "µs" to 1e3, "μs" to 1e3, "ms" to 1e6, "s" to 1e9, "m" to 60e9, "h" to 3600e9)
    var rest = s
    var sign = 1
    if (rest.startsWith("-") || rest.startsWith("+")) {
        if (rest[0] == '-') sign = -1
        rest = rest.substring(1)
    }
    if (rest == "0") return 0
    if (rest.isEmpty()) return null
    val part = Regex("^([0-9]*(?:\\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)")
    var total = 0.0
    while (rest.isNotEmpty()) {
        val m = part.find(rest) ?: return null
        val number = m.groupValues[1]
        if (number.isEmpty() || number == ".") return null
        total += number.toDouble() * units.getValue(m.groupValues[2])
        rest = rest.substring(m.value.length)
    }
    return (sign * total).toLong()
}

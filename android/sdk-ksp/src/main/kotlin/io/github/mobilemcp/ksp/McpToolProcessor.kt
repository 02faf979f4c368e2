package io.github.mobilemcp.ksp

import com.google.devtools.ksp.KspExperimental
import com.google.devtools.ksp.getAllSuperTypes
import com.google.devtools.ksp.getDeclaredFunctions
import com.google.devtools.ksp.processing.CodeGenerator
import com.google.devtools.ksp.processing.KSPLogger
import com.google.devtools.ksp.processing.Resolver
import com.google.devtools.ksp.processing.SymbolProcessor
import com.google.devtools.ksp.processing.SymbolProcessorEnvironment
import com.google.devtools.ksp.processing.SymbolProcessorProvider
import com.google.devtools.ksp.symbol.FileLocation
import com.google.devtools.ksp.symbol.KSAnnotated
import com.google.devtools.ksp.symbol.KSClassDeclaration
import com.google.devtools.ksp.symbol.KSFunctionDeclaration
import com.google.devtools.ksp.symbol.KSNode
import com.google.devtools.ksp.symbol.KSPropertyDeclaration
import com.google.devtools.ksp.symbol.KSType
import com.google.devtools.ksp.symbol.KSValueParameter
import com.google.devtools.ksp.symbol.Modifier
import com.google.devtools.ksp.symbol.Origin
import com.google.devtools.ksp.symbol.Visibility
import com.google.devtools.ksp.getVisibility
import java.io.File

/**
 * Makes [McpToolProcessor], mobilemcp's KSP processor. Its one option, `mobilemcp.descriptor`, is
 * the path of the app's capability descriptor, which the module that owns it sets:
 *
 * ```
 * ksp { arg("mobilemcp.descriptor", file("src/main/res/xml/mcp_capabilities.xml").path) }
 * ```
 *
 * A library module of handlers sets no option: its handlers are checked when the module that owns
 * the descriptor compiles.
 */
class McpToolProcessorProvider : SymbolProcessorProvider {
    override fun create(environment: SymbolProcessorEnvironment): SymbolProcessor =
        McpToolProcessor(environment.codeGenerator, environment.logger, environment.options)
}

/**
 * Checks every function annotated `@McpTool` against the capability descriptor that the option
 * `mobilemcp.descriptor` names, and generates the code that registers the handlers of each
 * class. Each mismatch is a compile error on the Kotlin symbol that names the descriptor's line,
 * says how to fix it, and ends with the rule's id in brackets, as `mobilemcp lint`'s findings do.
 *
 * Handlers may live in several modules. Each module records the handlers it compiles on a class
 * annotated `@McpHandlerIndex` in the package [GENERATED_PACKAGE]. A module without the option, a
 * library of handlers, checks what needs no descriptor (one handler for each id, each in a class,
 * types a descriptor can declare) and generates the registration from the Kotlin types. The module
 * with the option owns the descriptor: it also reads the records on its classpath and checks those
 * handlers as its own, naming the descriptor's line and the library's function, so that every
 * capability has exactly one handler across the modules.
 */
class McpToolProcessor(
    private val codeGenerator: CodeGenerator,
    private val logger: KSPLogger,
    private val options: Map<String, String>,
) : SymbolProcessor {
    private var descriptor: Descriptor? = null
    private var descriptorName = "mcp_capabilities.xml"
    private var failed = false
    private var loaded = false
    private var scanned = false

    /** The library handler being checked, as `package.Class.function`, and its capability's line. */
    private var library: String? = null
    private var libraryLine: Int? = null
    private val handlers = LinkedHashMap<String, KSFunctionDeclaration>()
    private val checked = mutableListOf<Handler>()

    /** Where the module's first class of handlers is (`path:line`), and its name. */
    private var firstClass: Pair<String, String>? = null

    override fun process(resolver: Resolver): List<KSAnnotated> {
        val functions = resolver.getSymbolsWithAnnotation(MCP_TOOL).filterIsInstance<KSFunctionDeclaration>().toList()
        if (options[DESCRIPTOR_OPTION] == null) {
            val round = functions.mapNotNull { fn -> idOf(fn)?.let { checkUnowned(fn, it) } }
            write(round, null)
            return emptyList()
        }
        if (!loaded) {
            loaded = true
            load()
        }
        val d = descriptor ?: return emptyList()
        if (!scanned) {
            scanned = true
            checkLibraries(resolver, d)
        }
        val round = functions.mapNotNull { fn -> idOf(fn)?.let { check(d, fn, it) } }
        checked += round
        if (firstClass == null) {
            // Kept as text: KSP2's symbols are not to be read after their round (in finish).
            val owner = round.map { it.fn.parentDeclaration as KSClassDeclaration }.firstOrNull()
            val at = owner?.location as? FileLocation
            if (owner != null && at != null) firstClass = "${at.filePath}:${at.lineNumber}" to owner.simpleName.asString()
        }
        write(round, descriptorName)
        return emptyList()
    }

    /** Writes the registration and the record of each class of [round], unless a check failed. */
    private fun write(round: List<Handler>, descriptorName: String?) {
        if (failed) return
        for ((owner, handlers) in round.groupBy { it.fn.parentDeclaration as KSClassDeclaration }) {
            generate(codeGenerator, owner, handlers, descriptorName)
            index(codeGenerator, owner, handlers)
        }
    }

    /**
     * Checks the handlers that the modules on the classpath recorded (@McpHandlerIndex in
     * [GENERATED_PACKAGE]) as the module's own, before them: a duplicate is reported on the
     * module's handler, the one its developer can move.
     */
    @OptIn(KspExperimental::class)
    private fun checkLibraries(resolver: Resolver, d: Descriptor) {
        val records = resolver.getDeclarationsFromPackage(GENERATED_PACKAGE)
            .filterIsInstance<KSClassDeclaration>()
            .filter { it.origin == Origin.KOTLIN_LIB || it.origin == Origin.JAVA_LIB }
            .mapNotNull { c -> c.annotations.firstOrNull { it.annotationType.resolve().declaration.qualifiedName?.asString() == MCP_HANDLER_INDEX } }
            .map { a -> a.arguments.associate { it.name?.asString() to it.value } }
            .sortedBy { it["type"] as? String }
            .toList()
        for (record in records) {
            val type = record["type"] as? String ?: continue
            val ids = (record["ids"] as? List<*>).orEmpty().filterIsInstance<String>()
            val names = (record["functions"] as? List<*>).orEmpty().filterIsInstance<String>()
            val owner = resolver.getClassDeclarationByName(resolver.getKSNameFromString(type))
            for ((id, name) in ids.zip(names)) {
                library = "$type.$name"
                libraryLine = null
                val candidates = owner?.getDeclaredFunctions()?.filter { it.simpleName.asString() == name }?.toList().orEmpty()
                val fn = candidates.firstOrNull { idOf(it) == id } ?: candidates.firstOrNull()
                if (fn == null) {
                    error("its record names @McpTool(${q(id)}), but the classpath has no such function; build the library that holds $type again [handler-place]", null)
                } else {
                    check(d, fn, id)
                }
            }
            library = null
            libraryLine = null
        }
    }

    override fun finish() {
        val d = descriptor ?: return
        if (failed) return
        // Reported at the module's first class of handlers, where the developer adds the missing
        // one, when it has any: a descriptor line alone points nowhere in the Kotlin.
        val near = firstClass
        for (c in d.capabilities) {
            if (c.id in handlers) continue
            if (near == null) {
                logger.error("$descriptorName:${c.line}: capability ${q(c.id)} has no handler; annotate the function that runs it with @McpTool(${q(c.id)}) [missing-handler]")
            } else {
                logger.error("${near.first}: capability ${q(c.id)} ($descriptorName:${c.line}) has no handler, in ${near.second} or elsewhere; annotate the function that runs it with @McpTool(${q(c.id)}) [missing-handler]")
            }
        }
    }

    /** Reads the descriptor the option names, or reports why it cannot. */
    private fun load(): Descriptor? {
        val path = options[DESCRIPTOR_OPTION]
        if (path.isNullOrBlank()) {
            logger.error("the KSP option $DESCRIPTOR_OPTION is empty; give it the path of the app's descriptor, ksp { arg(\"$DESCRIPTOR_OPTION\", file(\"src/main/res/xml/mcp_capabilities.xml\").path) }, or remove it in a library module of handlers [descriptor-option]")
            failed = true
            return null
        }
        val file = File(path)
        descriptorName = file.name
        val text = try {
            file.readText()
        } catch (e: java.io.IOException) {
            logger.error("the KSP option $DESCRIPTOR_OPTION names $path, which cannot be read ($e); give the path of the app's res/xml/mcp_capabilities.xml [descriptor-option]")
            failed = true
            return null
        }
        val d = Descriptor.read(text)
        if (d.errors.isNotEmpty()) {
            for (f in d.errors) logger.error("$descriptorName:${f.line}: ${f.message} [${f.rule}]")
            failed = true
            return null
        }
        descriptor = d
        return d
    }

    /**
     * Reports [message] on [node]; for a library handler, which has no source here, on the
     * capability's line of the descriptor, naming the handler.
     */
    private fun error(message: String, node: KSNode?) {
        failed = true
        val lib = library
        if (lib == null) {
            logger.error(message, node)
        } else {
            logger.error((libraryLine?.let { "${at(it)}: " } ?: "") + "in the library handler $lib, $message")
        }
    }

    /** The id that [fn]'s `@McpTool` names. */
    private fun idOf(fn: KSFunctionDeclaration): String? =
        fn.annotations.firstOrNull { it.annotationType.resolve().declaration.qualifiedName?.asString() == MCP_TOOL }
            ?.arguments?.firstOrNull { it.name?.asString() == "id" }?.value as? String

    private fun at(line: Int) = "$descriptorName:$line"

    /** Checks one handler, of the capability [id]; returns it when it matches its capability. */
    private fun check(d: Descriptor, fn: KSFunctionDeclaration, id: String): Handler? {
        val name = fn.simpleName.asString()
        if (fn.parentDeclaration !is KSClassDeclaration) {
            error("@McpTool(${q(id)}) is on $name, a top-level function; the generated code calls handlers on an instance, so move it into a class, and register it with handlers.register(instance) [handler-place]", fn)
            return null
        }
        val cap = d.capabilities.firstOrNull { it.id == id }
        if (cap == null) {
            val ids = d.capabilities.map { it.id }
            val near = closest(id, ids)
            val fix = if (near != null) {
                "did you mean ${q(near)} (${at(d.capabilities.first { it.id == near }.line)})?"
            } else {
                "its capabilities are ${ids.joinToString(", ")}; use one of them, or declare <capability id=${q(id)}> there"
            }
            error("@McpTool(${q(id)}) on $name names a capability that $descriptorName does not declare; $fix [unknown-capability]", fn)
            return null
        }
        if (library != null) libraryLine = cap.line
        if (!claim(id, fn, " (${at(cap.line)})")) return null
        var ok = true
        val params = mutableListOf<Argument>()
        val taken = HashSet<String>() // inputs taken, or suggested for a misspelt parameter
        for (p in fn.parameters) {
            val pname = p.name?.asString() ?: continue
            val type = p.type.resolve()
            if (type.qualified() == TOOL_CALL) {
                params += Argument(pname, null, type)
                continue
            }
            val paramName = override(p) ?: snakeCase(pname)
            val declared = cap.input.firstOrNull { it.name == paramName }
            if (declared == null) {
                val near = closest(paramName, cap.input.map { it.name })?.also { taken += it }
                val fix = if (near != null) {
                    "did you mean ${camelCase(near)} (${at(cap.input.first { it.name == near }.line)})? Rename the parameter, or name its param with @McpParam"
                } else {
                    "its inputs are ${cap.input.joinToString(", ") { it.name }.ifEmpty { "none" }}; remove the parameter, or declare <param name=${q(paramName)} .../> in the capability's <input>"
                }
                error("parameter $pname of $name: capability ${q(id)} (${at(cap.line)}) has no input param ${q(paramName)}; $fix [unknown-param]", p)
                ok = false
                continue
            }
            taken += paramName
            params += Argument(pname, declared, type)
            ok = checkParam(p, pname, type, declared) && ok
        }
        for (input in cap.input) {
            if (input.name !in taken) {
                val want = inputTypes(input).first() + if (input.required) "" else "?"
                error("$name takes no parameter for input param ${q(input.name)} (${at(input.line)}); add ${camelCase(input.name)}: $want [missing-param]", fn)
                ok = false
            }
        }
        val result = checkResult(fn, name, cap) ?: return null
        return if (ok) Handler(fn, cap, params, result) else null
    }

    private fun checkParam(p: KSValueParameter, pname: String, type: KSType, declared: Param): Boolean {
        val shown = "$pname: ${render(type)}"
        val wants = inputTypes(declared)
        val nullable = if (declared.required) "" else "?"
        if (render(type.makeNotNullable()) !in wants) {
            error("parameter $shown: input param ${q(declared.name)} is ${article(declared)} at ${at(declared.line)}; make it $pname: ${wants.first()}$nullable [param-type]", p)
            return false
        }
        if (declared.required && type.isMarkedNullable) {
            error("parameter $shown: input param ${q(declared.name)} is required at ${at(declared.line)}, so it is never null; make it $pname: ${wants.first()}, or set required=\"false\" [param-nullness]", p)
            return false
        }
        if (!declared.required && !type.isMarkedNullable) {
            error("parameter $shown: input param ${q(declared.name)} is optional (required=\"false\") at ${at(declared.line)}, so a call may leave it out; make it $pname: ${wants.first()}?, or set required=\"true\" [param-nullness]", p)
            return false
        }
        if (p.hasDefault) {
            error("parameter $pname has a default value, which is never used: the descriptor gives input param ${q(declared.name)} (${at(declared.line)}) no default, so ${if (declared.required) "every call passes it" else "a call without it passes null"}; remove the default [param-default]", p)
            return false
        }
        return true
    }

    /** Checks what [fn] returns against the outputs of [cap]; null when it does not match. */
    private fun checkResult(fn: KSFunctionDeclaration, name: String, cap: Capability): Result? {
        val type = fn.returnType?.resolve() ?: return null
        val qualified = type.qualified()
        val outputs = cap.output.joinToString(", ") { it.name }
        when {
            qualified == TOOL_RESULT -> return Result.Unchecked
            qualified == "kotlin.String" && !type.isMarkedNullable -> {
                if (cap.output.isEmpty()) return Result.Message
                error("$name returns a String, but capability ${q(cap.id)} (${at(cap.line)}) declares the outputs $outputs; return an McpResult with a property for each [result-type]", fn)
                return null
            }
        }
        val decl = type.declaration as? KSClassDeclaration
        if (decl == null || type.isMarkedNullable || decl.getAllSuperTypes().none { it.qualified() == MCP_RESULT }) {
            val fix = if (cap.output.isEmpty()) "return a String, the message, or an McpResult" else "return an McpResult with a property for each of the outputs $outputs"
            error("$name returns ${render(type)}; $fix [result-type]", fn)
            return null
        }
        var ok = true
        val properties = mutableListOf<Output>()
        val seen = HashSet<String>() // outputs given, or suggested for a misspelt property
        val className = decl.simpleName.asString()
        for (prop in decl.getAllProperties()) {
            val pname = prop.simpleName.asString()
            if (pname == "message" || prop.getVisibility() != Visibility.PUBLIC) continue
            val outName = override(prop, decl) ?: snakeCase(pname)
            val ptype = prop.type.resolve()
            val node: KSNode = if (prop.location is FileLocation) prop else fn
            val declared = cap.output.firstOrNull { it.name == outName }
            if (declared == null) {
                val near = closest(outName, cap.output.map { it.name })?.also { seen += it }
                val fix = if (near != null) {
                    "did you mean ${camelCase(near)} (${at(cap.output.first { it.name == near }.line)})? Rename the property, or name its output with @McpParam"
                } else {
                    "its outputs are ${outputs.ifEmpty { "none" }}; remove the property, or declare <param name=${q(outName)} .../> in the capability's <output>"
                }
                error("property $pname of $className, the result of $name: capability ${q(cap.id)} (${at(cap.line)}) has no output ${q(outName)}; $fix [unknown-output]", node)
                ok = false
                continue
            }
            seen += outName
            val wants = outputTypes(declared)
            if (ptype.isMarkedNullable || render(ptype) !in wants) {
                val why = if (ptype.isMarkedNullable && render(ptype.makeNotNullable()) in wants) {
                    "a successful call returns every declared output, so it is never null"
                } else {
                    "output ${q(declared.name)} is ${article(declared)} at ${at(declared.line)}"
                }
                error("property $pname: ${render(ptype)} of $className: $why; make it $pname: ${wants.first()} [output-type]", node)
                ok = false
                continue
            }
            properties += Output(pname, declared, ptype)
        }
        for (out in cap.output) {
            if (out.name !in seen) {
                error("$className, the result of $name, has no property for output ${q(out.name)} (${at(out.line)}); add val ${camelCase(out.name)}: ${outputTypes(out).first()} [missing-output]", fn)
                ok = false
            }
        }
        return if (ok) Result.Outputs(decl, properties) else null
    }

    /** Takes [id] for [fn], or reports the handler that has it (the capability [where] it is declared). */
    private fun claim(id: String, fn: KSFunctionDeclaration, where: String): Boolean {
        val first = handlers.putIfAbsent(id, fn) ?: return true
        error("capability ${q(id)}$where already has a handler, ${describe(first)}; each capability has one, so remove one of them [duplicate-handler]", fn)
        return false
    }

    /**
     * Checks one handler of the capability [id] in a module without the descriptor: what needs
     * none. Its arguments are read by their Kotlin types, which the module that owns the
     * descriptor checks against the params.
     */
    private fun checkUnowned(fn: KSFunctionDeclaration, id: String): Handler? {
        val name = fn.simpleName.asString()
        if (fn.parentDeclaration !is KSClassDeclaration) {
            error("@McpTool(${q(id)}) is on $name, a top-level function; the generated code calls handlers on an instance, so move it into a class, and register it with handlers.register(instance) [handler-place]", fn)
            return null
        }
        if (!claim(id, fn, "")) return null
        var ok = true
        val params = mutableListOf<Argument>()
        val inputs = mutableListOf<Param>()
        for (p in fn.parameters) {
            val pname = p.name?.asString() ?: continue
            val type = p.type.resolve()
            if (type.qualified() == TOOL_CALL) {
                params += Argument(pname, null, type)
                continue
            }
            val kind = kotlinParamTypes[render(type.makeNotNullable())]
            if (kind == null) {
                error("parameter $pname: ${render(type)} of $name: no descriptor param is taken as ${render(type.makeNotNullable())}; make it String, Long, Double, Boolean, JSONObject, JSONArray, or a List of one of them [param-type]", p)
                ok = false
                continue
            }
            if (p.hasDefault) {
                error("parameter $pname has a default value, which is never used: a call passes every input param, or null for an optional one it leaves out; remove the default [param-default]", p)
                ok = false
                continue
            }
            val param = Param(override(p) ?: snakeCase(pname), kind.first, kind.second, !type.isMarkedNullable, 0)
            inputs += param
            params += Argument(pname, param, type)
        }
        val type = fn.returnType?.resolve() ?: return null
        val decl = type.declaration as? KSClassDeclaration
        val result = when {
            type.qualified() == TOOL_RESULT -> Result.Unchecked
            type.qualified() == "kotlin.String" && !type.isMarkedNullable -> Result.Message
            decl != null && !type.isMarkedNullable && decl.getAllSuperTypes().any { it.qualified() == MCP_RESULT } -> Result.Outputs(decl,
                decl.getAllProperties().filter { it.simpleName.asString() != "message" && it.getVisibility() == Visibility.PUBLIC }.map { prop ->
                    val pname = prop.simpleName.asString()
                    Output(pname, Param(override(prop, decl) ?: snakeCase(pname), "", null, true, 0), prop.type.resolve())
                }.toList())
            else -> {
                error("$name returns ${render(type)}; return an McpResult with a property for each of the capability's outputs, a String, the message of a capability without outputs, or a ToolResult [result-type]", fn)
                null
            }
        }
        return if (ok && result != null) Handler(fn, Capability(id, 0, inputs, emptyList()), params, result) else null
    }

    /** The name an `@McpParam` gives [node], or, for a property, its constructor parameter. */
    private fun override(node: KSAnnotated, owner: KSClassDeclaration? = null): String? {
        fun of(n: KSAnnotated) = n.annotations.firstOrNull { it.annotationType.resolve().declaration.qualifiedName?.asString() == MCP_PARAM }
            ?.arguments?.firstOrNull { it.name?.asString() == "name" }?.value as? String
        of(node)?.let { return it }
        if (node is KSPropertyDeclaration && owner != null) {
            val param = owner.primaryConstructor?.parameters?.firstOrNull { it.name?.asString() == node.simpleName.asString() }
            if (param != null) return of(param)
        }
        return null
    }

    private fun owner(fn: KSFunctionDeclaration) = (fn.parentDeclaration as? KSClassDeclaration)?.let { it.simpleName.asString() + "." } ?: ""

    /** [fn] as a message names a handler: `Class.function at File.kt:LINE`, or a library's by its qualified name. */
    private fun describe(fn: KSFunctionDeclaration): String {
        if (fn.location is FileLocation) return "${owner(fn)}${fn.simpleName.asString()} at ${where(fn)}"
        val owner = (fn.parentDeclaration as? KSClassDeclaration)?.qualifiedName?.asString()
        return (owner?.let { "$it." } ?: "") + fn.simpleName.asString() + " in a library"
    }

    private fun where(node: KSNode): String = (node.location as? FileLocation)?.let { File(it.filePath).name + ":" + it.lineNumber } ?: "an unknown place"

    companion object {
        /** The KSP option that names the capability descriptor. */
        const val DESCRIPTOR_OPTION = "mobilemcp.descriptor"
        const val MCP_TOOL = "io.github.mobilemcp.sdk.ktx.McpTool"
        const val MCP_PARAM = "io.github.mobilemcp.sdk.ktx.McpParam"
        const val MCP_HANDLER_INDEX = "io.github.mobilemcp.sdk.ktx.McpHandlerIndex"
        const val MCP_RESULT = "io.github.mobilemcp.sdk.ktx.McpResult"
        const val TOOL_CALL = "io.github.mobilemcp.sdk.ToolCall"
        const val TOOL_RESULT = "io.github.mobilemcp.sdk.ToolResult"

        /** The package of the classes that record each module's handlers, for the module that owns the descriptor. */
        const val GENERATED_PACKAGE = "io.github.mobilemcp.generated"
    }
}

/** A handler that matches its capability: what the generated code calls. */
internal class Handler(val fn: KSFunctionDeclaration, val capability: Capability, val arguments: List<Argument>, val result: Result)

/** One parameter of a handler: an input [param], or the call itself when [param] is null. */
internal class Argument(val name: String, val param: Param?, val type: KSType)

/** One property of a result: the output [param]. */
internal class Output(val name: String, val param: Param, val type: KSType)

/** What a handler returns. */
internal sealed class Result {
    /** A ToolResult, as the string API's handlers return. */
    object Unchecked : Result()

    /** A String, the message of a capability without outputs. */
    object Message : Result()

    /** An McpResult whose [properties] are the outputs. */
    class Outputs(val type: KSClassDeclaration, val properties: List<Output>) : Result()
}

private fun KSType.qualified(): String? = declaration.qualifiedName?.asString()

/** [type] as a developer writes it: `List<String>?`. */
internal fun render(type: KSType): String {
    val args = if (type.arguments.isEmpty()) "" else type.arguments.joinToString(", ", "<", ">") { a ->
        a.type?.resolve()?.let(::render) ?: "*"
    }
    return type.declaration.simpleName.asString() + args + if (type.isMarkedNullable) "?" else ""
}

private val itemTypes = mapOf(
    "string" to "String", "integer" to "Long", "number" to "Double", "boolean" to "Boolean",
    "object" to "JSONObject", "array" to "JSONArray",
)

/** The descriptor's type, and items, of each Kotlin type an input param may be taken as. */
private val kotlinParamTypes: Map<String, Pair<String, String?>> =
    itemTypes.entries.associate { (type, kotlin) -> kotlin to (type to null) } +
        itemTypes.entries.associate { (type, kotlin) -> "List<$kotlin>" to ("array" to type) }

/** The Kotlin types an input param may be taken as, not null, the one to suggest first. */
internal fun inputTypes(p: Param): List<String> = when (p.type) {
    "array" -> listOfNotNull(p.items?.let { "List<${itemTypes.getValue(it)}>" }, "JSONArray")
    else -> listOf(itemTypes.getValue(p.type))
}

/** The Kotlin types a result's property may have for the output [p], the one to suggest first. */
internal fun outputTypes(p: Param): List<String> = when (p.type) {
    "integer" -> listOf("Long", "Int")
    "number" -> listOf("Double", "Float", "Long", "Int")
    "object" -> listOf("JSONObject", "Map<String, Any?>", "Map<String, Any>")
    "array" -> listOfNotNull(p.items?.let { "List<${itemTypes.getValue(it)}>" }, "JSONArray")
    else -> listOf(itemTypes.getValue(p.type))
}

/** "a string", "an integer", "an array of string", as messages name a param's type. */
private fun article(p: Param): String {
    val noun = if (p.type == "array" && p.items != null) "array of ${p.items}" else p.type
    return (if (noun[0] in "aeiou") "an " else "a ") + noun
}

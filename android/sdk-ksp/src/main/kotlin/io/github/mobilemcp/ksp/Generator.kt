package io.github.mobilemcp.ksp

import com.google.devtools.ksp.processing.CodeGenerator
import com.google.devtools.ksp.processing.Dependencies
import com.google.devtools.ksp.symbol.KSClassDeclaration
import com.google.devtools.ksp.getVisibility
import com.google.devtools.ksp.symbol.Modifier
import com.google.devtools.ksp.symbol.Visibility
import com.squareup.kotlinpoet.AnnotationSpec
import com.squareup.kotlinpoet.KModifier
import com.squareup.kotlinpoet.ClassName
import com.squareup.kotlinpoet.CodeBlock
import com.squareup.kotlinpoet.FileSpec
import com.squareup.kotlinpoet.FunSpec
import com.squareup.kotlinpoet.MemberName
import com.squareup.kotlinpoet.TypeSpec
import com.squareup.kotlinpoet.joinToCode
import com.squareup.kotlinpoet.ksp.toClassName
import com.squareup.kotlinpoet.ksp.writeTo

private val toolHandlers = ClassName("io.github.mobilemcp.sdk", "ToolHandlers")
private val toolResult = ClassName("io.github.mobilemcp.sdk", "ToolResult")
private val toolFailure = ClassName("io.github.mobilemcp.sdk", "ToolFailure")
private val onSuspend = MemberName("io.github.mobilemcp.sdk.ktx", "onSuspend")
private val handlerIndex = ClassName("io.github.mobilemcp.sdk.ktx", "McpHandlerIndex")

/** The typed getters of sdk-ktx that read an array argument as a list, by `mcp:items`. */
private val listGetters = mapOf(
    "string" to "getStringList", "integer" to "getLongList", "number" to "getDoubleList",
    "boolean" to "getBooleanList", "object" to "getObjectList", "array" to "getArrayList",
).mapValues { MemberName("io.github.mobilemcp.sdk.ktx", it.value) }

/**
 * Writes, for the class [owner] that holds [handlers], the function that registers them:
 * `fun ToolHandlers.register(tools: Owner): ToolHandlers`, in the class's package. It decodes
 * each argument with the typed getters of [io.github.mobilemcp.sdk.ToolCall] from what the engine
 * has already checked against the descriptor. Should the two ever disagree (the app ships another
 * descriptor than it was compiled with), the getter's IllegalArgumentException becomes an
 * `internal_error` that names the argument, never a ClassCastException. No reflection: a call is a
 * plain Kotlin call. In a module without the descriptor ([descriptorName] null), the arguments are
 * read by the parameters' Kotlin types, which the module that owns the descriptor checks.
 */
internal fun generate(codeGenerator: CodeGenerator, owner: KSClassDeclaration, handlers: List<Handler>, descriptorName: String?) {
    val ownerName = owner.toClassName()
    val register = FunSpec.builder("register")
        .apply {
            if (descriptorName != null) addKdoc("Registers the handlers of [tools], the capabilities %L declares:\n", descriptorName)
            else addKdoc("Registers the handlers of [tools], which the module that owns the capability descriptor checks:\n")
        }
        .addKdoc("%L.\n", handlers.joinToString(", ") { it.capability.id })
        .receiver(toolHandlers)
        .apply { if (owner.getVisibility() == Visibility.INTERNAL) addModifiers(KModifier.INTERNAL) }
        .addParameter("tools", ownerName)
        .returns(toolHandlers)
    for (h in handlers) {
        val suspend = Modifier.SUSPEND in h.fn.modifiers
        val body = CodeBlock.builder()
        val args = h.arguments.map { a -> CodeBlock.of("%N = %L", a.name, checked(a, h.capability.id, descriptorName)) }
        body.add("val result = tools.%N(", h.fn.simpleName.asString())
        if (args.isNotEmpty()) {
            body.add("\n⇥")
            args.forEach { body.add("%L,\n", it) }
            body.add("⇤")
        }
        body.add(")\n")
        when (val r = h.result) {
            Result.Unchecked -> body.add("result\n")
            Result.Message -> body.add("%T.success(result)\n", toolResult)
            is Result.Outputs -> {
                body.add("%T.success(result.message)", toolResult)
                body.add("⇥")
                for (o in r.properties) {
                    val value = when (render(o.type)) {
                        "Float" -> CodeBlock.of("result.%N.toDouble()", o.name)
                        else -> CodeBlock.of("result.%N", o.name)
                    }
                    body.add("\n.put(%S, %L)", o.param.name, value)
                }
                body.add("⇤\n")
            }
        }
        val call = if (h.arguments.isEmpty()) "_" else "call"
        if (suspend) {
            register.addCode("%M(%S) { %L ->\n⇥%L⇤}\n", onSuspend, h.capability.id, call, body.build())
        } else {
            register.addCode("on(%S) { %L ->\n⇥%L⇤}\n", h.capability.id, call, body.build())
        }
    }
    register.addStatement("return this")
    val fileName = ownerName.simpleNames.joinToString("") + "Handlers"
    FileSpec.builder(ownerName.packageName, fileName)
        .addFileComment("Written by mobilemcp's KSP processor (sdk-ksp) from %L%L: do not edit.", ownerName.simpleNames.joinToString("."), descriptorName?.let { " and $it" } ?: "")
        .addFunction(register.build())
        .build()
        .writeTo(codeGenerator, Dependencies(false, *listOfNotNull(owner.containingFile).toTypedArray()))
}

/**
 * The expression that reads argument [a] from `call`, answering `internal_error` that names it
 * when the engine passed something else.
 */
private fun checked(a: Argument, id: String, descriptorName: String?): CodeBlock {
    val p = a.param ?: return read(a)
    val what = (if (p.required) "a required " else "an optional ") + if (p.type == "array" && p.items != null) "array of ${p.items}" else p.type
    val message = "the argument ${p.name} of $id is not $what, as the ${descriptorName ?: "capability descriptor"} that the app was compiled with declares; build the app again with the descriptor it ships"
    return CodeBlock.of("try { %L } catch (e: IllegalArgumentException) { throw %T.internalError(%S) }", read(a), toolFailure, message)
}

/** The expression that reads argument [a] from `call`. */
private fun read(a: Argument): CodeBlock {
    val p = a.param ?: return CodeBlock.of("call")
    val getter = when {
        p.type == "array" && render(a.type.makeNotNullable()) != "JSONArray" -> return list(p)
        else -> when (p.type) {
            "string" -> "getString"
            "integer" -> "getLong"
            "number" -> "getDouble"
            "boolean" -> "getBoolean"
            "object" -> "getObject"
            else -> "getArray"
        }
    }
    return if (p.required) CodeBlock.of("call.%N(%S)", getter, p.name)
    else CodeBlock.of("if (call.has(%S)) call.%N(%S) else null", p.name, getter, p.name)
}

private fun list(p: Param): CodeBlock {
    val getter = listGetters.getValue(p.items!!)
    return if (p.required) CodeBlock.of("call.%M(%S)", getter, p.name)
    else CodeBlock.of("if (call.has(%S)) call.%M(%S) else null", p.name, getter, p.name)
}

/**
 * Writes the record of the handlers of [owner]: a class in `io.github.mobilemcp.generated`, named
 * after [owner], annotated `@McpHandlerIndex`, from which the module that owns the descriptor
 * reads them on its classpath. The record is aggregating: the checks that count handlers see every
 * handler of the module, so in an incremental build a change to any file has them all processed again.
 */
internal fun index(codeGenerator: CodeGenerator, owner: KSClassDeclaration, handlers: List<Handler>) {
    val type = owner.qualifiedName?.asString() ?: return
    val name = type.replace("_", "__").replace('.', '_') + "_McpHandlers"
    val record = AnnotationSpec.builder(handlerIndex)
        .addMember("type = %S", type)
        .addMember("ids = [%L]", handlers.map { CodeBlock.of("%S", it.capability.id) }.joinToCode())
        .addMember("functions = [%L]", handlers.map { CodeBlock.of("%S", it.fn.simpleName.asString()) }.joinToCode())
        .build()
    FileSpec.builder(McpToolProcessor.GENERATED_PACKAGE, name)
        .addFileComment("Written by mobilemcp's KSP processor (sdk-ksp) from %L: do not edit.", type)
        .addType(
            TypeSpec.classBuilder(name)
                .addKdoc("The @McpTool handlers of [%L], for the module that owns the capability descriptor.", type)
                .addAnnotation(record)
                .build(),
        )
        .build()
        .writeTo(codeGenerator, Dependencies(true, *listOfNotNull(owner.containingFile).toTypedArray()))
}

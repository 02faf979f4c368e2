@file:OptIn(org.jetbrains.kotlin.compiler.plugin.ExperimentalCompilerApi::class)

package io.github.mobilemcp.ksp

import com.tschuchort.compiletesting.JvmCompilationResult
import com.tschuchort.compiletesting.KotlinCompilation
import com.tschuchort.compiletesting.SourceFile
import com.tschuchort.compiletesting.configureKsp
import com.tschuchort.compiletesting.useKsp2
import com.tschuchort.compiletesting.sourcesGeneratedBySymbolProcessor
import java.io.File
import java.nio.file.Files

/** The annotations, from sdk-ktx's source: what a tool compiles against. */
private val annotations = SourceFile.kotlin("TypedTools.kt", File(repoRoot, "android/sdk-ktx/src/main/kotlin/io/github/mobilemcp/sdk/ktx/TypedTools.kt").readText())

/** What compiling through the processor gave. */
class Compiled(val result: JvmCompilationResult) {
    val ok get() = result.exitCode == KotlinCompilation.ExitCode.OK

    /**
     * The processor's errors, each as `File.kt:LINE: message [rule]`, or without the place when
     * it has none. (When it fails, KSP adds the compiler's errors on the sources, which a test
     * of one mismatch may cause; they are left out.)
     */
    val errors: List<String>
        get() = result.messages.lines().filter { it.startsWith("e: [ksp] ") && Regex("\\[[a-z-]+]$").containsMatchIn(it) }.map {
            it.removePrefix("e: [ksp] ").replace(Regex("^/\\S*/([^/]+\\.(?:kt|java):\\d+: )"), "$1")
        }

    /** The Kotlin files the processor wrote, by name. */
    val generated: Map<String, String>
        get() = result.sourcesGeneratedBySymbolProcessor.associate { it.name to it.readText() }
}

/**
 * Compiles [sources] (name to Kotlin or, for a name ending in .java, Java text) with the annotations, through the processor, against
 * [descriptor] (a file, XML text, or null to leave the option unset); [compileGenerated] also compiles what it generates, which
 * needs the sdk. [classpath] holds the classes of the modules it depends on.
 */
fun compile(descriptor: Any?, vararg sources: Pair<String, String>, compileGenerated: Boolean = false, classpath: List<File> = emptyList()): Compiled {
    val file = when (descriptor) {
        null -> null
        is File -> descriptor
        else -> Files.createTempDirectory("descriptor").resolve("mcp_capabilities.xml").toFile().apply { writeText(descriptor.toString()) }
    }
    val compilation = KotlinCompilation().apply {
        this.sources = sources.map { (name, text) ->
            if (name.endsWith(".java")) SourceFile.java(name, text) else SourceFile.kotlin(name, text)
        } + annotations
        inheritClassPath = true
        classpaths = classpath
        messageOutputStream = java.io.OutputStream.nullOutputStream()
        useKsp2()
        configureKsp {
            symbolProcessorProviders += McpToolProcessorProvider()
            if (file != null) processorOptions[McpToolProcessor.DESCRIPTOR_OPTION] = file.path
            withCompilation = compileGenerated
        }
    }
    return Compiled(compilation.compile())
}

/** A module of handlers, compiled: what the processor said, and the module's classes. */
class Library(val compiled: Compiled, val classes: File)

/**
 * Compiles [sources] as a module of handlers: through the processor, without the option unless [descriptor] is given,
 * then, as the module's build does, its sources with the records the processor wrote, to classes for another
 * compilation's classpath. The registration it wrote is left out of the classes: it needs the sdk, which these tests
 * compile without.
 */
fun compileLibrary(vararg sources: Pair<String, String>, descriptor: Any? = null): Library {
    val compiled = compile(descriptor, *sources)
    check(compiled.errors.isEmpty()) { compiled.result.messages }
    val records = compiled.result.sourcesGeneratedBySymbolProcessor.filter { it.path.contains("io/github/mobilemcp/generated") }
    val classes = KotlinCompilation().apply {
        this.sources = sources.map { (name, text) -> SourceFile.kotlin(name, text) } + annotations +
            records.map { SourceFile.kotlin(it.name, it.readText()) }
        inheritClassPath = true
        messageOutputStream = java.io.OutputStream.nullOutputStream()
    }.compile()
    check(classes.exitCode == KotlinCompilation.ExitCode.OK) { classes.messages }
    return Library(compiled, classes.outputDirectory)
}

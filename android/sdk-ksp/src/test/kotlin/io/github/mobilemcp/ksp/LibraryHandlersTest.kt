@file:OptIn(org.jetbrains.kotlin.compiler.plugin.ExperimentalCompilerApi::class)

package io.github.mobilemcp.ksp

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File

/**
 * Handlers in two modules: a library of handlers (notes.core), compiled first without the descriptor,
 * whose classes are on the classpath of the app module (notes), which owns the notes sample's
 * descriptor and checks every capability's handler across both.
 */
class LibraryHandlersTest {
    /** The library's handlers: create_note and delete_note. Each test changes one thing. */
    private val coreTools = """
        package notes.core

        import io.github.mobilemcp.sdk.ktx.McpResult
        import io.github.mobilemcp.sdk.ktx.McpTool

        class CoreTools {
            @McpTool("create_note")
            fun createNote(title: String, body: String?): Created = Created(1)

            @McpTool("delete_note")
            suspend fun deleteNote(id: Long): Deleted = Deleted(id)
        }

        data class Created(val id: Long) : McpResult { override val message get() = "Created note ${'$'}id" }
        data class Deleted(val id: Long) : McpResult { override val message get() = "Deleted note ${'$'}id" }
    """.trimIndent()

    /** The app's handler: list_notes. */
    private val notesTools = """
        package notes

        import io.github.mobilemcp.sdk.ktx.McpResult
        import io.github.mobilemcp.sdk.ktx.McpTool
        import org.json.JSONArray

        class NotesTools {
            @McpTool("list_notes")
            fun listNotes(): Listed = Listed(0, JSONArray())
        }

        data class Listed(val count: Int, val notes: JSONArray) : McpResult { override val message get() = "${'$'}count notes" }
    """.trimIndent()

    private val goldens = File(repoRoot, "android/sdk-ksp/src/test/resources/golden")

    private fun assertGolden(name: String, generated: String) {
        val file = File(goldens, name)
        if (System.getProperty("mobilemcp.updateGoldens") == "true") file.writeText(generated)
        assertEquals("$name, the golden file of the generated code", file.readText(), generated)
    }

    /** Compiles the library from [core], then the app from [app] against it and the notes descriptor. */
    private fun app(core: String = coreTools, app: String = notesTools): Compiled {
        val library = compileLibrary("CoreTools.kt" to core)
        return compile(notesDescriptor, "NotesTools.kt" to app, classpath = listOf(library.classes))
    }

    @Test fun aLibraryWithoutTheDescriptorRegistersItsHandlersAndRecordsThem() {
        val library = compileLibrary("CoreTools.kt" to coreTools)
        assertEquals(setOf("CoreToolsHandlers.kt", "notes_core_CoreTools_McpHandlers.kt"), library.compiled.generated.keys)
        assertGolden("CoreToolsHandlers.kt", library.compiled.generated.getValue("CoreToolsHandlers.kt"))
        assertGolden("notes_core_CoreTools_McpHandlers.kt", library.compiled.generated.getValue("notes_core_CoreTools_McpHandlers.kt"))
    }

    @Test fun everyCapabilityHandledAcrossTwoModules() {
        val compiled = app()
        assertEquals(compiled.result.messages, listOf<String>(), compiled.errors)
        // The app registers its own class; the library's registration is the library's.
        assertEquals(setOf("NotesToolsHandlers.kt", "notes_NotesTools_McpHandlers.kt"), compiled.generated.keys)
        assertTrue(compiled.generated.getValue("NotesToolsHandlers.kt").contains("public fun ToolHandlers.register(tools: NotesTools): ToolHandlers {"))
    }

    /** The app reads a library's @McpParam names, and its optional params, from the classes. */
    @Test fun aLibraryHandlerWithMcpParamNames() {
        val compiled = app(core = coreTools
            .replace("fun createNote(title: String, body: String?)", "fun createNote(@io.github.mobilemcp.sdk.ktx.McpParam(\"title\") heading: String, body: String?)")
            .replace("data class Deleted(val id: Long)", "data class Deleted(@io.github.mobilemcp.sdk.ktx.McpParam(\"id\") val noteId: Long)")
            .replace("\"Deleted note ${'$'}id\"", "\"Deleted note ${'$'}noteId\""))
        assertEquals(compiled.result.messages, listOf<String>(), compiled.errors)
    }

    @Test fun aCapabilityHandledInNeitherModule() {
        val compiled = app(core = coreTools.replace("@McpTool(\"delete_note\")", ""))
        assertEquals(listOf(
            "NotesTools.kt:7: capability \"delete_note\" (mcp_capabilities.xml:23) has no handler, in NotesTools or elsewhere; annotate the function that runs it with @McpTool(\"delete_note\") [missing-handler]",
        ), compiled.errors)
    }

    @Test fun theSameCapabilityHandledInBothModules() {
        val compiled = app(app = notesTools.replace("class NotesTools {", "class NotesTools {\n    @McpTool(\"delete_note\") fun remove(id: Long): String = \"gone\"\n"))
        assertEquals(listOf(
            "NotesTools.kt:8: capability \"delete_note\" (mcp_capabilities.xml:23) already has a handler, notes.core.CoreTools.deleteNote in a library; each capability has one, so remove one of them [duplicate-handler]",
        ), compiled.errors)
    }

    @Test fun aLibraryHandlerOfTheWrongType() {
        val compiled = app(core = coreTools.replace("fun deleteNote(id: Long): Deleted = Deleted(id)", "fun deleteNote(id: String): Deleted = Deleted(id.toLong())"))
        assertEquals(listOf(
            "mcp_capabilities.xml:23: in the library handler notes.core.CoreTools.deleteNote, parameter id: String: input param \"id\" is an integer at mcp_capabilities.xml:26; make it id: Long [param-type]",
        ), compiled.errors)
    }

    @Test fun aLibraryHandlerOfACapabilityTheDescriptorLacks() {
        val compiled = app(core = coreTools.replace("@McpTool(\"delete_note\")", "@McpTool(\"delete_notes\")"))
        assertEquals(listOf(
            "in the library handler notes.core.CoreTools.deleteNote, @McpTool(\"delete_notes\") on deleteNote names a capability that mcp_capabilities.xml does not declare; did you mean \"delete_note\" (mcp_capabilities.xml:23)? [unknown-capability]",
        ), compiled.errors)
    }

    /**
     * As an app's unit tests compile in Gradle: with the option, and the app's classes, whose handlers the
     * app's own compilation checked, registered and recorded, on the classpath. They count, and nothing
     * is generated again.
     */
    @Test fun aModuleWithTheDescriptorAndTheHandlersOnItsClasspath() {
        val lines = notesDescriptor.readLines()
        val descriptor = (lines.subList(0, 15) + lines.subList(22, lines.size)).joinToString("\n")
        assertTrue(descriptor, !descriptor.contains("list_notes"))
        val app = compileLibrary("CoreTools.kt" to coreTools, descriptor = descriptor)
        assertEquals(setOf("CoreToolsHandlers.kt", "notes_core_CoreTools_McpHandlers.kt"), app.compiled.generated.keys)
        val tests = compile(descriptor, "CoreToolsTest.kt" to "package notes.core\n\nclass CoreToolsTest", classpath = listOf(app.classes))
        assertEquals(tests.result.messages, listOf<String>(), tests.errors)
        assertEquals(setOf<String>(), tests.generated.keys)
        val missing = compile(descriptor, "CoreToolsTest.kt" to "package notes.core\n\nclass CoreToolsTest")
        assertEquals(listOf(
            "mcp_capabilities.xml:6: capability \"create_note\" has no handler; annotate the function that runs it with @McpTool(\"create_note\") [missing-handler]",
            "mcp_capabilities.xml:16: capability \"delete_note\" has no handler; annotate the function that runs it with @McpTool(\"delete_note\") [missing-handler]",
        ), missing.errors)
    }

    /** Without the descriptor, a library still checks what needs none. */
    @Test fun aLibraryHandlerOfATypeNoParamHas() {
        val compiled = compile(null, "CoreTools.kt" to coreTools.replace("fun deleteNote(id: Long): Deleted = Deleted(id)", "fun deleteNote(id: Int): Deleted = Deleted(id.toLong())"))
        assertEquals(listOf(
            "CoreTools.kt:11: parameter id: Int of deleteNote: no descriptor param is taken as Int; make it String, Long, Double, Boolean, JSONObject, JSONArray, or a List of one of them [param-type]",
        ), compiled.errors)
    }

    @Test fun twoHandlersOfOneIdInALibrary() {
        val compiled = compile(null, "CoreTools.kt" to coreTools.replace("@McpTool(\"delete_note\")", "@McpTool(\"create_note\")"))
        assertEquals(listOf(
            "CoreTools.kt:11: capability \"create_note\" already has a handler, CoreTools.createNote at CoreTools.kt:8; each capability has one, so remove one of them [duplicate-handler]",
        ), compiled.errors)
    }
}

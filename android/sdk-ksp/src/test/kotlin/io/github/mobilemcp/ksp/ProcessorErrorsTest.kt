@file:OptIn(org.jetbrains.kotlin.compiler.plugin.ExperimentalCompilerApi::class)

package io.github.mobilemcp.ksp

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test

/**
 * Each mismatch between handlers and the notes sample's descriptor
 * (android/notes/res/xml/mcp_capabilities.xml) is a compile error with this exact message, on the
 * Kotlin line, naming the descriptor's line.
 */
class ProcessorErrorsTest {
    /** The notes tool, typed, as it matches the descriptor; each test breaks one thing. */
    private val notesTools = """
        package notes

        import io.github.mobilemcp.sdk.ktx.McpResult
        import io.github.mobilemcp.sdk.ktx.McpTool
        import org.json.JSONArray

        class NotesTools {
            @McpTool("create_note")
            fun createNote(title: String, body: String?): Created = Created(1)

            @McpTool("list_notes")
            fun listNotes(): Listed = Listed(0, JSONArray())

            @McpTool("delete_note")
            fun deleteNote(id: Long): Deleted = Deleted(id)
        }

        data class Created(val id: Long) : McpResult { override val message get() = "Created note ${'$'}id" }
        data class Listed(val count: Int, val notes: JSONArray) : McpResult { override val message get() = "${'$'}count notes" }
        data class Deleted(val id: Long) : McpResult { override val message get() = "Deleted note ${'$'}id" }
    """.trimIndent()

    /** The errors of compiling the notes tool with [old] replaced by [new]. */
    private fun errors(old: String, new: String): List<String> {
        assertTrue("the notes tool has no $old", notesTools.contains(old))
        val compiled = compile(notesDescriptor, "NotesTools.kt" to notesTools.replace(old, new))
        assertTrue(compiled.result.messages, !compiled.ok)
        return compiled.errors
    }

    @Test fun theNotesToolMatches() {
        val compiled = compile(notesDescriptor, "NotesTools.kt" to notesTools)
        assertEquals(compiled.result.messages, listOf<String>(), compiled.errors)
    }

    @Test fun unknownCapabilityWithTheNearestId() = assertEquals(
        listOf("NotesTools.kt:15: @McpTool(\"delete_notes\") on deleteNote names a capability that mcp_capabilities.xml does not declare; did you mean \"delete_note\" (mcp_capabilities.xml:23)? [unknown-capability]"),
        errors("@McpTool(\"delete_note\")", "@McpTool(\"delete_notes\")"))

    @Test fun unknownCapabilityFarFromAny() = assertEquals(
        listOf("NotesTools.kt:15: @McpTool(\"archive\") on deleteNote names a capability that mcp_capabilities.xml does not declare; its capabilities are create_note, list_notes, delete_note; use one of them, or declare <capability id=\"archive\"> there [unknown-capability]"),
        errors("@McpTool(\"delete_note\")", "@McpTool(\"archive\")"))

    @Test fun capabilityWithoutHandler() = assertEquals(
        listOf("NotesTools.kt:7: capability \"delete_note\" (mcp_capabilities.xml:23) has no handler, in NotesTools or elsewhere; annotate the function that runs it with @McpTool(\"delete_note\") [missing-handler]"),
        errors("@McpTool(\"delete_note\")", ""))

    @Test fun twoHandlersForOneCapability() = assertEquals(
        listOf("NotesTools.kt:16: capability \"delete_note\" (mcp_capabilities.xml:23) already has a handler, NotesTools.deleteNote at NotesTools.kt:15; each capability has one, so remove one of them [duplicate-handler]"),
        errors("fun deleteNote(id: Long): Deleted = Deleted(id)\n", "fun deleteNote(id: Long): Deleted = Deleted(id)\n    @McpTool(\"delete_note\") fun remove(id: Long): Deleted = Deleted(id)\n"))

    @Test fun parameterTheDescriptorDoesNotDeclare() = assertEquals(
        listOf("NotesTools.kt:9: parameter tittle of createNote: capability \"create_note\" (mcp_capabilities.xml:6) has no input param \"tittle\"; did you mean title (mcp_capabilities.xml:9)? Rename the parameter, or name its param with @McpParam [unknown-param]"),
        errors("title: String,", "tittle: String,"))

    @Test fun parameterFarFromAnyInput() = assertEquals(
        listOf("NotesTools.kt:15: parameter force of deleteNote: capability \"delete_note\" (mcp_capabilities.xml:23) has no input param \"force\"; its inputs are id; remove the parameter, or declare <param name=\"force\" .../> in the capability's <input> [unknown-param]"),
        errors("fun deleteNote(id: Long)", "fun deleteNote(id: Long, force: Boolean)"))

    @Test fun declaredInputNotTaken() = assertEquals(
        listOf("NotesTools.kt:9: createNote takes no parameter for input param \"body\" (mcp_capabilities.xml:10); add body: String? [missing-param]"),
        errors("title: String, body: String?", "title: String"))

    @Test fun mcpParamNamesTheInput() {
        val compiled = compile(notesDescriptor, "NotesTools.kt" to notesTools
            .replace("title: String,", "@io.github.mobilemcp.sdk.ktx.McpParam(\"title\") heading: String,"))
        assertEquals(compiled.result.messages, listOf<String>(), compiled.errors)
    }

    @Test fun typeMismatch() = assertEquals(
        listOf("NotesTools.kt:15: parameter id: Int: input param \"id\" is an integer at mcp_capabilities.xml:26; make it id: Long [param-type]"),
        errors("fun deleteNote(id: Long): Deleted = Deleted(id)", "fun deleteNote(id: Int): Deleted = Deleted(id.toLong())"))

    @Test fun requiredParamIsNeverNull() = assertEquals(
        listOf("NotesTools.kt:9: parameter title: String?: input param \"title\" is required at mcp_capabilities.xml:9, so it is never null; make it title: String, or set required=\"false\" [param-nullness]"),
        errors("title: String,", "title: String?,"))

    @Test fun optionalParamIsNullable() = assertEquals(
        listOf("NotesTools.kt:9: parameter body: String: input param \"body\" is optional (required=\"false\") at mcp_capabilities.xml:10, so a call may leave it out; make it body: String?, or set required=\"true\" [param-nullness]"),
        errors("body: String?", "body: String"))

    @Test fun defaultValueTheDescriptorLacks() = assertEquals(
        listOf("NotesTools.kt:9: parameter body has a default value, which is never used: the descriptor gives input param \"body\" (mcp_capabilities.xml:10) no default, so a call without it passes null; remove the default [param-default]"),
        errors("body: String?", "body: String? = null"))

    @Test fun resultPropertyTheDescriptorDoesNotDeclare() = assertEquals(
        listOf("NotesTools.kt:18: property ids of Created, the result of createNote: capability \"create_note\" (mcp_capabilities.xml:6) has no output \"ids\"; did you mean id (mcp_capabilities.xml:13)? Rename the property, or name its output with @McpParam [unknown-output]"),
        errors("data class Created(val id: Long)", "data class Created(val ids: Long)"))

    @Test fun declaredOutputMissing() = assertEquals(
        listOf("NotesTools.kt:12: Listed, the result of listNotes, has no property for output \"count\" (mcp_capabilities.xml:19); add val count: Long [missing-output]"),
        errors("data class Listed(val count: Int, ", "data class Listed("))

    @Test fun outputOfAnotherType() = assertEquals(
        listOf("NotesTools.kt:19: property count: String of Listed: output \"count\" is an integer at mcp_capabilities.xml:19; make it count: Long [output-type]"),
        errors("val count: Int,", "val count: String,"))

    @Test fun outputIsNeverNull() = assertEquals(
        listOf("NotesTools.kt:20: property id: Long? of Deleted: a successful call returns every declared output, so it is never null; make it id: Long [output-type]"),
        errors("data class Deleted(val id: Long)", "data class Deleted(val id: Long?)"))

    @Test fun stringResultOfACapabilityWithOutputs() = assertEquals(
        listOf("NotesTools.kt:12: listNotes returns a String, but capability \"list_notes\" (mcp_capabilities.xml:16) declares the outputs count, notes; return an McpResult with a property for each [result-type]"),
        errors("fun listNotes(): Listed = Listed(0, JSONArray())", "fun listNotes(): String = \"none\""))

    @Test fun descriptorWithErrorsIsRefusedAsTheEngineRefusesIt() {
        // The Go engine's answer for this file is in the notes sample's MisbehavingToolTest.
        val broken = java.io.File(repoRoot, "android/notes/src/test/res/xml/broken_capabilities.xml")
        val compiled = compile(broken, "NotesTools.kt" to notesTools)
        assertEquals(listOf(
            "broken_capabilities.xml:4: capability \"create_note\" has no version attribute; add version=\"1.0\" [missing-attribute]",
            "broken_capabilities.xml:4: capability \"create_note\" has mcp:timeout=\"soon\"; write a duration from 1ms to 10m, such as mcp:timeout=\"60s\" or mcp:timeout=\"500ms\" [extension-value]",
        ), compiled.errors)
    }

    @Test fun aTopLevelHandler() {
        val compiled = compile(notesDescriptor, "NotesTools.kt" to notesTools, "Ping.kt" to """
            package notes

            import io.github.mobilemcp.sdk.ktx.McpTool

            @McpTool("list_notes")
            fun listAll(): String = "none"
        """.trimIndent())
        assertEquals(listOf(
            "Ping.kt:6: @McpTool(\"list_notes\") is on listAll, a top-level function; the generated code calls handlers on an instance, so move it into a class, and register it with handlers.register(instance) [handler-place]",
        ), compiled.errors)
    }

    /** Without the option, the module is a library of handlers, which the module with the descriptor checks. */
    @Test fun noDescriptorOption() {
        val compiled = compile(null, "NotesTools.kt" to notesTools.replace("fun deleteNote(id: Long)", "fun deleteNote(id: String)"))
        assertEquals(compiled.result.messages, listOf<String>(), compiled.errors)
        assertEquals(setOf("NotesToolsHandlers.kt", "notes_NotesTools_McpHandlers.kt"), compiled.generated.keys)
    }

    @Test fun emptyDescriptorOption() {
        val compiled = compile(java.io.File(""), "NotesTools.kt" to notesTools)
        assertEquals(listOf(
            "the KSP option mobilemcp.descriptor is empty; give it the path of the app's descriptor, ksp { arg(\"mobilemcp.descriptor\", file(\"src/main/res/xml/mcp_capabilities.xml\").path) }, or remove it in a library module of handlers [descriptor-option]",
        ), compiled.errors)
    }

    /** KSP reads Java too: an annotated Java handler is checked as a Kotlin one is. */
    @Test fun aJavaHandler() {
        val compiled = compile(notesDescriptor, "NotesTools.kt" to notesTools.replace("@McpTool(\"delete_note\")", ""), "JavaTools.java" to """
            package notes;

            import io.github.mobilemcp.sdk.ktx.McpTool;

            public class JavaTools {
                @McpTool(id = "delete_note")
                public Deleted deleteNote(int id) { return new Deleted(id); }
            }
        """.trimIndent())
        assertEquals(listOf(
            "JavaTools.java:7: parameter id: Int: input param \"id\" is an integer at mcp_capabilities.xml:26; make it id: Long [param-type]",
        ), compiled.errors)
    }
}

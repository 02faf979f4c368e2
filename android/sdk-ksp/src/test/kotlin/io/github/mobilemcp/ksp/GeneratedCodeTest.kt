@file:OptIn(org.jetbrains.kotlin.compiler.plugin.ExperimentalCompilerApi::class)

package io.github.mobilemcp.ksp

import org.junit.Assert.assertEquals
import org.junit.Test
import java.io.File

/**
 * The code the processor generates, against golden files in src/test/resources/golden. After a
 * deliberate change, rewrite them with -Dmobilemcp.updateGoldens=true and review the diff.
 */
class GeneratedCodeTest {
    private val goldens = File(repoRoot, "android/sdk-ksp/src/test/resources/golden")

    private fun assertGolden(name: String, generated: String) {
        val file = File(goldens, name)
        if (System.getProperty("mobilemcp.updateGoldens") == "true") file.writeText(generated)
        assertEquals("$name, the golden file of the generated code", file.readText(), generated)
    }

    @Test fun theNotesTool() {
        val compiled = compile(notesDescriptor, "NotesTools.kt" to """
            package io.github.mobilemcp.notes

            import io.github.mobilemcp.sdk.ktx.McpResult
            import io.github.mobilemcp.sdk.ktx.McpTool
            import org.json.JSONObject

            class NotesTools {
                @McpTool("create_note")
                fun createNote(title: String, body: String?): Created = Created(1)

                @McpTool("list_notes")
                fun listNotes(): Listed = Listed(0, listOf())

                @McpTool("delete_note")
                suspend fun deleteNote(id: Long): Deleted = Deleted(id)
            }

            data class Created(val id: Long) : McpResult { override val message get() = "Created note ${'$'}id" }
            data class Listed(val count: Int, val notes: List<JSONObject>) : McpResult { override val message get() = "${'$'}count notes" }
            data class Deleted(val id: Long) : McpResult { override val message get() = "Deleted note ${'$'}id" }
        """.trimIndent())
        assertEquals(compiled.result.messages, listOf<String>(), compiled.errors)
        assertGolden("NotesToolsHandlers.kt", compiled.generated.getValue("NotesToolsHandlers.kt"))
    }

    /** Every type, the engine's synonyms (long, double, bool), optional params and list items. */
    @Test fun everyType() {
        val descriptor = """
            <?xml version="1.0" encoding="utf-8"?>
            <mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
              <capability id="everything" description="Takes one of each." version="1.0" mcp:readOnly="true">
                <input>
                  <param name="text" type="string" required="true" description="A string."/>
                  <param name="count" type="long" required="true" description="An integer."/>
                  <param name="ratio" type="double" required="false" description="A number."/>
                  <param name="on" type="bool" required="false" description="A boolean."/>
                  <param name="options" type="object" required="false" description="An object."/>
                  <param name="tags" type="array" mcp:items="string" required="true" description="Strings."/>
                  <param name="sizes" type="array" mcp:items="integer" required="false" description="Integers."/>
                  <param name="raw" type="array" required="false" description="Anything."/>
                </input>
                <output>
                  <param name="total" type="number" description="A number."/>
                  <param name="names" type="array" mcp:items="string" description="Strings."/>
                  <param name="done" type="boolean" description="A boolean."/>
                </output>
              </capability>
              <capability id="ping" description="Answers." version="1.0" mcp:readOnly="true"/>
            </mobile-mcp-capabilities>
        """.trimIndent()
        val compiled = compile(descriptor, "Everything.kt" to """
            package example

            import io.github.mobilemcp.sdk.ktx.McpParam
            import io.github.mobilemcp.sdk.ktx.McpResult
            import io.github.mobilemcp.sdk.ktx.McpTool
            import org.json.JSONArray
            import org.json.JSONObject

            object Everything {
                @McpTool("everything")
                suspend fun run(
                    text: String, count: Long, ratio: Double?, @McpParam("on") enabled: Boolean?,
                    options: JSONObject?, tags: List<String>, sizes: List<Long>?, raw: JSONArray?,
                ): Summary = Summary(1.5f, tags, true)

                @McpTool("ping")
                fun ping(): String = "pong"
            }

            class Summary(val total: Float, val names: List<String>, @McpParam("done") val finished: Boolean) : McpResult {
                override val message = "done"
            }
        """.trimIndent())
        assertEquals(compiled.result.messages, listOf<String>(), compiled.errors)
        assertGolden("EverythingHandlers.kt", compiled.generated.getValue("EverythingHandlers.kt"))
    }
}

@file:OptIn(org.jetbrains.kotlin.compiler.plugin.ExperimentalCompilerApi::class)

package io.github.mobilemcp.ksp

import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Test
import java.io.File

/**
 * The processor reads a descriptor as `mobilemcp lint` does: on every example of the lint rules
 * (engine/descriptor/xmlfile/testdata/lint-rules), it finds the errors that the Go lint finds, by
 * the same rule, on the same line, in the same words. The Go lint's findings are read from
 * docs/reference/lint-rules.md, which a Go test (TestLintRulesPageIsGenerated) keeps equal to what
 * the lint says of each example today. Warnings are the lint's alone: an example that only warns
 * compiles.
 */
class LintAgreementTest {
    private val page = File(repoRoot, "docs/reference/lint-rules.md").readText()
    private val fixtures = File(repoRoot, "engine/descriptor/xmlfile/testdata/lint-rules")

    /** A rule's example and the Go lint's findings on it, from the page. */
    private class Example(val rule: String, val xml: String, val findings: List<String>)

    private fun examples(section: String): List<Example> {
        val body = page.substringAfter("## $section\n").substringBefore("\n## ")
        return body.split("\n### ").drop(1).map { s ->
            val rule = s.substringBefore(" ")
            val xml = s.substringAfter("```xml\n").substringBefore("\n```")
            val findings = s.substringAfter("```xml\n").substringAfter("\n```").substringAfter("```\n").substringBefore("\n```")
            Example(rule, xml, findings.lines().filter { it.isNotBlank() })
        }
    }

    @Test fun everyDescriptorExampleIsReadAsTheGoLintReadsIt() {
        val examples = examples("Descriptor rules")
        assertTrue("the page has ${examples.size} descriptor rules", examples.size >= 19)
        for (e in examples) {
            val fixture = File(fixtures, "${e.rule}.txt").readText().substringAfter("```xml\n").substringBefore("\n```")
            assertEquals("the page's example of ${e.rule} is testdata/lint-rules/${e.rule}.txt's", fixture, e.xml)
            val want = e.findings.filter { ": error: " in it }
            val got = Descriptor.read(e.xml).errors.map { "mcp_capabilities.xml:${it.line}: error: ${it.message} [${it.rule}]" }
            if (e.rule == "xml-syntax") {
                // The parser's own words differ (StAX's, Go's encoding/xml); the rule and line do not.
                assertEquals(e.rule, want.map { it.substringBefore(": the file") + " " + it.substringAfterLast(" ") },
                    got.map { it.substringBefore(": the file") + " " + it.substringAfterLast(" ") })
            } else {
                assertEquals(e.rule, want, got)
            }
        }
    }

    @Test fun theProjectsDescriptorsHaveNoErrors() {
        val descriptors = listOf(
            "android/notes/res/xml/mcp_capabilities.xml",
            "android/app/res/xml/mcp_capabilities.xml",
            "android/sdk-tests/res/xml/mcp_capabilities.xml",
            "android/sdk-ktx/src/test/res/xml/timer_capabilities.xml",
            "android/consumer-smoke/src/main/res/xml/mcp_capabilities.xml",
            "engine/descriptor/xmlfile/testdata/res/xml/mcp_capabilities.xml",
        )
        for (path in descriptors) {
            val d = Descriptor.read(File(repoRoot, path).readText())
            assertEquals(path, listOf<Finding>(), d.errors)
            assertTrue(path, d.capabilities.isNotEmpty())
        }
    }

    /**
     * mcp:pattern is RE2's syntax, which the engine's Go regexp takes: a pattern Java would take but
     * RE2 refuses (a lookahead, a backreference) is refused, in Go's words (engine/descriptor/xmlfile's
     * lint_test.go has the same cases).
     */
    @Test fun patternsAreReadWithRe2sSyntaxInGosWords() {
        val go = mapOf(
            "[a-" to "error parsing regexp: missing closing ]: `[a-`",
            "(?=a)b" to "error parsing regexp: invalid or unsupported Perl syntax: `(?=`",
            "(a)\\1" to "error parsing regexp: invalid escape sequence: `\\1`",
            "a**" to "error parsing regexp: invalid nested repetition operator: `**`",
        )
        for ((pattern, message) in go) {
            val xml = """
                <mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">
                  <capability id="c" description="d" version="1.0">
                    <input><param name="p" type="string" required="true" description="d" mcp:pattern="$pattern"/></input>
                  </capability>
                </mobile-mcp-capabilities>
            """.trimIndent()
            val got = Descriptor.read(xml).errors.map { "${it.line}: ${it.message} [${it.rule}]" }
            assertEquals(pattern, listOf("3: input param \"p\" has mcp:pattern=\"${pattern.replace("\\", "\\\\")}\", which is not a regular expression: $message [extension-value]"), got)
        }
        assertEquals(listOf<Finding>(), Descriptor.read(notesDescriptor.readText().replace("mcp:maxLength=\"100\"", "mcp:pattern=\"^\\p{L}[\\p{L} ]*$\"")).errors)
    }

    @Test fun linesAreTheStartTags() {
        val d = Descriptor.read(notesDescriptor.readText())
        assertEquals(listOf("create_note:6", "list_notes:16", "delete_note:23"), d.capabilities.map { "${it.id}:${it.line}" })
        assertEquals(listOf("title:9:string:true", "body:10:string:false"), d.capabilities[0].input.map { "${it.name}:${it.line}:${it.type}:${it.required}" })
        assertEquals(listOf("count:19:integer:null", "notes:20:array:object"), d.capabilities[1].output.map { "${it.name}:${it.line}:${it.type}:${it.items}" })
    }
}

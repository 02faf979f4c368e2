package io.github.mobilemcp.notes

import io.github.mobilemcp.sdk.testing.McpTestRunner
import io.github.mobilemcp.sdk.testing.McpToolRule
import org.junit.Assert.assertEquals
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith

/** The notes tool on the string API in Kotlin (docs/tool-sdk-java.md) behaves as the typed one. */
@RunWith(McpTestRunner::class)
class KotlinNotesToolTest {
    @get:Rule val tool = McpToolRule(KotlinNotesToolService::class.java).withDescriptor(R.xml.mcp_capabilities)

    @Test fun createListAndDelete() = createListAndDelete(tool)
}

/** The notes tool on the string API in Java (docs/tool-sdk-java.md) behaves as the typed one. */
@RunWith(McpTestRunner::class)
class JavaNotesToolTest {
    @get:Rule val tool = McpToolRule(JavaNotesToolService::class.java).withDescriptor(R.xml.mcp_capabilities)

    @Test fun createListAndDelete() = createListAndDelete(tool)
}

/** What the typed notes tool's test (TypedNotesToolTest) asks of it, asked of [tool]. */
private fun createListAndDelete(tool: McpToolRule) {
    val created = tool.call("create_note", """{"title":"Milk"}""")
    assertEquals("Created note 1", created.message())
    assertEquals(1L, created.getLong("id"))
    assertEquals("1 note", tool.call("list_notes", "{}").message())
    assertEquals("Deleted note 1", tool.call("delete_note", """{"id":1}""").message())
    val again = tool.call("delete_note", """{"id":1}""")
    assertEquals("invalid_arguments: there is no note 1; list_notes gives the ids", "${again.errorCode()}: ${again.message()}")
    val blank = tool.call("create_note", """{"title":" "}""")
    assertEquals("invalid_arguments: title is blank; give the note a title", "${blank.errorCode()}: ${blank.message()}")
}

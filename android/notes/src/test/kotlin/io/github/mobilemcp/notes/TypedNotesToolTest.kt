package io.github.mobilemcp.notes

import io.github.mobilemcp.sdk.testing.McpTestRunner
import io.github.mobilemcp.sdk.testing.McpToolRule
import org.junit.Assert.assertEquals
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith

/** The notes tool, typed handlers whose registration sdk-ksp generated: the guide's test (docs/tool-sdk.md). */
@RunWith(McpTestRunner::class)
class TypedNotesToolTest {
    @get:Rule val tool = McpToolRule(NotesToolService::class.java)

    @Test fun createListAndDelete() {
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
}

/** A descriptor changed after compiling: the generated code answers internal_error naming the argument. */
@RunWith(McpTestRunner::class)
class SkewedNotesToolTest {
    @get:Rule val tool = McpToolRule(NotesToolService::class.java).withDescriptor(R.xml.skewed_capabilities)

    @Test fun anArgumentOfAnotherTypeIsAnInternalError() {
        val reply = tool.call("delete_note", """{"id":"1"}""")
        assertEquals("internal_error: the argument id of delete_note is not a required integer, as the mcp_capabilities.xml that the app was compiled with declares; build the app again with the descriptor it ships",
            "${reply.errorCode()}: ${reply.message()}")
    }
}

package io.github.mobilemcp.sdk.ktx

import io.github.mobilemcp.sdk.testing.McpTestRunner
import io.github.mobilemcp.sdk.testing.McpToolRule
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith

/** The list getters read each kind of array the engine passes, and name an argument that is missing. */
@RunWith(McpTestRunner::class)
class ListArgumentsTest {
    @get:Rule val tool = McpToolRule(ListToolService::class.java).withDescriptor(R.xml.lists_capabilities)

    @Test fun everyKindOfItem() {
        val reply = tool.call("describe", """{"words":["a","b"],"sizes":[1,2],"ratios":[0.5,2],"flags":[true],"objects":[{"k":"v"}],"rows":[[1,2],[]]}""")
        assertEquals("words [a, b], sizes [1, 2], ratios [0.5, 2.0], flags [true], objects [v], rows [2, 0]", reply.message())
    }

    @Test fun anAbsentListIsTheHandlersBug() {
        val reply = tool.call("describe", """{"words":[],"sizes":[]}""")
        assertEquals("internal_error", "${reply.errorCode()}")
        assertTrue("${reply.message()}", "${reply.message()}".startsWith("describe failed: its handler threw an exception, which the tool logged"))
    }
}

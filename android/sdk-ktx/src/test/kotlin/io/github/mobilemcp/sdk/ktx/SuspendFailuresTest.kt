package io.github.mobilemcp.sdk.ktx

import io.github.mobilemcp.sdk.McpToolService
import io.github.mobilemcp.sdk.ToolFailure
import io.github.mobilemcp.sdk.ToolHandlers
import io.github.mobilemcp.sdk.testing.McpTestRunner
import io.github.mobilemcp.sdk.testing.McpToolRule
import kotlinx.coroutines.yield
import org.junit.Assert.assertEquals
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith

/** A ToolFailure thrown in a suspending handler, after a suspension too, is that failure. */
@RunWith(McpTestRunner::class)
class SuspendFailuresTest {
    /** The timer's descriptor, whose wait refuses a negative time from inside the coroutine. */
    class RefusingTimer : McpToolService() {
        override fun registerHandlers(handlers: ToolHandlers) {
            handlers.onSuspend("wait") { call ->
                val millis = call.getLong("millis")
                yield()
                throw ToolFailure.invalidArguments("millis is $millis; give a wait of 0 or more")
            }
        }
    }

    @get:Rule val tool = McpToolRule(RefusingTimer::class.java).withDescriptor(R.xml.timer_capabilities)

    @Test fun aToolFailureThrownInASuspendingHandlerIsItsFailure() {
        val reply = tool.call("wait", """{"millis":-5}""")
        assertEquals("failure invalid_arguments: millis is -5; give a wait of 0 or more",
            "${if (reply.isSuccess()) "success" else "failure"} ${reply.errorCode()}: ${reply.message()}")
    }
}

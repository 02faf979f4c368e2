package io.github.mobilemcp.sdk.ktx

import io.github.mobilemcp.sdk.testing.McpTestRunner
import io.github.mobilemcp.sdk.testing.McpToolRule
import org.junit.Assert.assertEquals
import org.junit.Assert.assertTrue
import org.junit.Rule
import org.junit.Test
import org.junit.runner.RunWith
import org.robolectric.shadows.ShadowLog

/** A suspending handler answers as a blocking one does, and is cancelled at its deadline. */
@RunWith(McpTestRunner::class)
class SuspendHandlersTest {
    @get:Rule val tool = McpToolRule(TimerToolService::class.java)
        .withDescriptor(R.xml.timer_capabilities).withTimeoutMillis(DEADLINE_MILLIS)

    @Test fun aHandlerThatFinishesInTimeIsTheReply() {
        val reply = tool.call("wait", """{"millis":10}""")
        assertEquals("success: Waited 10 ms", "${if (reply.isSuccess()) "success" else "failure"}: ${reply.message()}")
        assertEquals(setOf("millis"), reply.outputs().keys)
        assertEquals(10L, reply.getLong("millis"))
        assertEquals(emptyList<String>(), cancellations())
    }

    @Test fun aToolFailureThrownInASuspendingHandlerIsItsFailure() {
        val reply = tool.call("wait", """{"millis":-5}""")
        assertEquals("failure invalid_arguments: millis is -5; give a wait of 0 or more",
            "${if (reply.isSuccess()) "success" else "failure"} ${reply.errorCode()}: ${reply.message()}")
    }

    @Test fun aHandlerThatOverrunsIsCancelledAtTheDeadline() {
        // More than once: the handler gives up at the same moment as the engine answers, and each
        // time the caller must get the engine's reply.
        for (i in 1..3) {
            val start = System.nanoTime()
            val reply = tool.call("wait", """{"millis":60000}""")
            val millis = (System.nanoTime() - start) / 1_000_000
            assertEquals("wait failure timeout: wait did not finish within 1s",
                "${reply.capabilityId()} ${if (reply.isSuccess()) "success" else "failure"} ${reply.errorCode()}: ${reply.message()}")
            assertEquals(emptyMap<String, Any>(), reply.outputs())
            assertTrue("the timeout came after $millis ms, not at the deadline", millis < DEADLINE_MILLIS + 4000)
            // The handler, cancelled at the deadline, unwinds.
            McpToolRule.idleUntil("the handler's cancellation") { cancellations().size == i }
        }
        assertEquals(List(3) { "wait was cancelled after 0 ms left" }, cancellations())
    }

    private fun cancellations(): List<String> = ShadowLog.getLogsForTag("TimerTool").map { it.msg }

    private companion object {
        const val DEADLINE_MILLIS = 1000L
    }
}

package io.github.mobilemcp.app

import android.app.Application
import android.os.Looper
import android.view.ViewGroup
import android.widget.Button
import io.github.mobilemcp.client.MobileMcpClient
import io.github.mobilemcp.sdk.internal.ConsentConfirmActivity
import io.github.mobilemcp.sdk.internal.InternalApi
import org.robolectric.Robolectric
import org.robolectric.Shadows.shadowOf

/**
 * The user allows the assistant [app] in the SMS app: its consent question, opened with the
 * PendingIntent the app gives an assistant, and Allow tapped.
 */
@OptIn(InternalApi::class) // the SDK's question activity, as Android starts it
internal fun userTapsAllow(host: ToolHost, app: Application) {
    MobileMcpClient(app).use { mcp ->
        val tool = mcp.discover().tools().single { it.packageName() == app.packageName }
        host.await(mcp.consentQuestion(tool)).send()
    }
    shadowOf(Looper.getMainLooper()).idle()
    val started = shadowOf(app).nextStartedActivity
    val question = Robolectric.buildActivity(ConsentConfirmActivity::class.java, started).setup().get()
    val layout = question.findViewById<ViewGroup>(android.R.id.content).getChildAt(0) as ViewGroup
    (0 until layout.childCount).map { layout.getChildAt(it) }
        .single { it is Button && it.text.toString() == "Allow" }.performClick()
}

package io.github.mobilemcp.sdk.internal;

import android.app.Activity;
import android.net.Uri;
import android.os.Bundle;
import android.util.Log;
import android.view.MotionEvent;
import android.widget.Button;
import android.widget.LinearLayout;
import android.widget.TextView;

import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.R;
import io.github.mobilemcp.sdk.TouchGuard;

/**
 * Where the consent notification's Allow leads: the same question, inside the tool, with Allow and
 * Deny that only the user's own taps work (see {@link TouchGuard}). Firing the notification's
 * PendingIntent, as any app with notification access can, only opens this screen; nothing is
 * decided until the user taps Allow here. From API 31 it hides other apps' overlays while it shows.
 * Not exported (the SDK's manifest declares it), and with no task affinity, so it opens in a task
 * of its own that no app's task can take in, and out of the recents list. The calling package is
 * the Intent's data URI ({@code package:<name>}). The SDK's manifest declares it: Android creates
 * it by this name, and no app's code uses it.
 */
@InternalApi
public final class ConsentConfirmActivity extends Activity {
    private String callerPackage;

    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        TouchGuard.hideOverlays(this);
        Uri data = getIntent().getData();
        if (data == null || !"package".equals(data.getScheme()) || data.getSchemeSpecificPart() == null) {
            Log.w(McpToolService.LOG_TAG, "the consent confirmation was opened without a calling app: " + getIntent());
            finish();
            return;
        }
        callerPackage = data.getSchemeSpecificPart();
        Components.Provider sdk = Components.provider(this);
        String caller = sdk.callerLabel(this, callerPackage);
        String tool = sdk.toolLabel(this);
        setTitle(getString(R.string.mobilemcp_consent_title, caller, tool));

        LinearLayout layout = new LinearLayout(this);
        layout.setOrientation(LinearLayout.VERTICAL);
        TextView question = new TextView(this);
        question.setText(getString(R.string.mobilemcp_consent_text, caller, tool));
        layout.addView(question);
        layout.addView(button(R.string.mobilemcp_allow, true));
        layout.addView(button(R.string.mobilemcp_deny, false));
        setContentView(layout);
        Components.provider(this).settleAfterEveryTouch(this);
    }

    /**
     * An assistant may open this screen itself (the consent question's PendingIntent), at a moment
     * it chooses: in the middle of a burst of taps in its own screen, with Allow under the user's
     * finger. So a tap here counts only after the user's touches have paused: the end of every touch
     * on the screen, wherever it lands, makes Allow and Deny ignore taps for
     * {@link TouchGuard#SETTLE_MILLIS}, as the screen's appearing does
     * (the SDK's TouchGuard). A burst that began before the screen appeared
     * decides nothing, however long it goes on.
     */
    @Override
    public boolean dispatchTouchEvent(MotionEvent event) {
        TouchGuard.screenTouched(this, event);
        boolean handled = super.dispatchTouchEvent(event);
        Components.provider(this).touchEnded(this, event); // after the buttons judged it
        return handled;
    }

    private Button button(int label, boolean allow) {
        Button button = new Button(this);
        button.setText(label);
        TouchGuard.protect(button);
        button.setOnClickListener(v -> {
            Components.provider(this).decide(this, callerPackage, allow);
            finish();
        });
        return button;
    }
}

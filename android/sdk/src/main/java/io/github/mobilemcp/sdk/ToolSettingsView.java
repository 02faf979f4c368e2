package io.github.mobilemcp.sdk;

import io.github.mobilemcp.Consent;

import android.app.Activity;
import android.app.AlertDialog;
import android.content.Context;
import android.text.format.DateFormat;
import android.util.AttributeSet;
import android.util.Log;
import android.view.View;
import android.widget.Button;
import android.widget.LinearLayout;
import android.widget.Switch;
import android.widget.TextView;

import java.util.Date;

import org.jspecify.annotations.Nullable;

/**
 * The tool's settings as a view to put in any screen: the apps that asked to use the tool, with
 * Allow and Deny for those waiting and Revoke for those decided, and the developer switch. Call
 * {@link #refresh} when the screen resumes; decisions change from the notification too.
 * {@link ToolSettingsActivity} is this view on a screen of its own.
 *
 * <p>Each app's row has the package as its tag. Recording a decision runs on a background thread;
 * the rows are then shown again on the main thread.
 */
public final class ToolSettingsView extends LinearLayout {
    private final ToolSettings tool;
    private final LinearLayout callers;
    private final TextView empty;
    private final Switch developerSwitch;
    private final TextView developerNote;
    /** Set while the code itself sets the switch, so that its listener ignores the change. */
    private boolean showing;

    /**
     * The settings of the tool of context's app, as they are now. Main thread. context is the
     * screen's Activity: turning the developer switch on asks in a dialog, which needs one.
     */
    public ToolSettingsView(Context context) {
        this(context, null);
    }

    /**
     * The view as a layout inflates it, from a {@code <io.github.mobilemcp.sdk.ToolSettingsView>}
     * tag with attrs, its layout attributes; otherwise as {@link #ToolSettingsView(Context)}.
     */
    public ToolSettingsView(Context context, @Nullable AttributeSet attrs) {
        super(context, attrs);
        setOrientation(VERTICAL);
        tool = ToolSettings.get(context);

        TextView heading = new TextView(context);
        heading.setText(context.getString(R.string.mobilemcp_callers_heading, ConsentPrompt.appLabel(context)));
        addView(heading);
        callers = new LinearLayout(context);
        callers.setOrientation(VERTICAL);
        addView(callers);
        empty = new TextView(context);
        empty.setText(R.string.mobilemcp_callers_empty);
        addView(empty);

        developerSwitch = new Switch(context);
        developerSwitch.setText(R.string.mobilemcp_developer_switch);
        TouchGuard.protect(developerSwitch);
        developerSwitch.setOnCheckedChangeListener((v, on) -> {
            if (showing) {
                return;
            }
            if (on) {
                confirmDeveloperSwitch();
            } else {
                tool.setDeveloperSwitchOn(false);
            }
        });
        addView(developerSwitch);
        developerNote = new TextView(context);
        addView(developerNote);
        refresh();
    }

    /** Shows the decisions and the switch as they are now. Main thread. */
    public void refresh() {
        callers.removeAllViews();
        for (ToolSettings.Caller caller : tool.getCallers()) {
            String pkg = caller.getPackageName();
            String name = ConsentPrompt.label(getContext(), pkg);
            switch (caller.getConsent()) {
                case WAITING:
                    LinearLayout row = row(pkg, getContext().getString(R.string.mobilemcp_caller_waiting, name));
                    addButton(row, R.string.mobilemcp_allow, () -> tool.allow(pkg));
                    addButton(row, R.string.mobilemcp_deny, () -> tool.deny(pkg));
                    break;
                default:
                    String since = DateFormat.getDateFormat(getContext()).format(new Date(caller.getDecidedAtMillis()));
                    int text = caller.getConsent() == Consent.ALLOWED
                            ? R.string.mobilemcp_caller_allowed : R.string.mobilemcp_caller_denied;
                    addButton(row(pkg, getContext().getString(text, name, since)), R.string.mobilemcp_revoke, () -> tool.forget(pkg));
            }
        }
        empty.setVisibility(callers.getChildCount() == 0 ? VISIBLE : GONE);

        boolean debuggable = tool.isDebuggable();
        showing = true;
        developerSwitch.setChecked(tool.acceptsRequestsWithoutCallback());
        showing = false;
        developerSwitch.setEnabled(!debuggable);
        developerNote.setText(debuggable ? R.string.mobilemcp_developer_switch_debuggable : R.string.mobilemcp_developer_switch_release);
    }

    /**
     * Turning the developer switch on asks first, with a button only the user's own tap works: the
     * switch stays off until they confirm.
     */
    private void confirmDeveloperSwitch() {
        showing = true;
        developerSwitch.setChecked(false);
        showing = false;
        AlertDialog dialog = new AlertDialog.Builder(getContext())
                .setTitle(R.string.mobilemcp_developer_switch_confirm)
                .setMessage(R.string.mobilemcp_developer_switch_release)
                .setPositiveButton(R.string.mobilemcp_developer_switch_turn_on, (d, which) -> {
                    tool.setDeveloperSwitchOn(true);
                    refresh();
                })
                .setNegativeButton(android.R.string.cancel, null)
                .create();
        dialog.show();
        TouchGuard.protect(dialog.getButton(AlertDialog.BUTTON_POSITIVE));
    }

    /** A row about pkg (its tag) with text; the buttons follow it. */
    private LinearLayout row(String pkg, String text) {
        LinearLayout row = new LinearLayout(getContext());
        row.setOrientation(HORIZONTAL);
        row.setTag(pkg);
        TextView label = new TextView(getContext());
        label.setText(text);
        row.addView(label, new LayoutParams(0, LayoutParams.WRAP_CONTENT, 1));
        callers.addView(row);
        return row;
    }

    /** A button that runs action off the main thread, then shows the rows again. */
    private void addButton(LinearLayout row, int label, Runnable action) {
        Button button = new Button(getContext());
        button.setText(label);
        TouchGuard.protect(button);
        button.setOnClickListener(v -> ToolRuntime.get(getContext()).background().execute(() -> {
            try {
                action.run();
            } catch (RuntimeException e) {
                Log.e(McpToolService.LOG_TAG, "could not record the decision about " + row.getTag(), e);
            }
            post(this::refreshIfShown);
        }));
        row.addView(button);
    }

    private void refreshIfShown() {
        Context context = getContext();
        if (!(context instanceof Activity) || !((Activity) context).isDestroyed()) {
            refresh();
        }
    }

    /**
     * The row of the calling app pkg (the view tagged with it): its text, then its buttons. Null
     * when the view shows no row for pkg. Main thread.
     */
    @Nullable View rowOf(String pkg) {
        return callers.findViewWithTag(pkg);
    }
}

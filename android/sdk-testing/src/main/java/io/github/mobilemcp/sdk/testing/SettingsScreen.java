package io.github.mobilemcp.sdk.testing;

import android.app.Activity;
import android.os.SystemClock;
import android.view.View;
import android.view.ViewGroup;
import android.widget.Button;
import android.widget.Switch;
import android.widget.TextView;

import io.github.mobilemcp.Consent;
import io.github.mobilemcp.sdk.ToolSettings;
import io.github.mobilemcp.sdk.R;
import io.github.mobilemcp.sdk.ToolSettingsActivity;
import io.github.mobilemcp.sdk.ToolSettingsView;
import io.github.mobilemcp.sdk.TouchGuard;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.robolectric.Robolectric;

/**
 * The Tool SDK's settings screen in a Robolectric test, read and used as the user would: a row per
 * calling app (found by its package, the row's tag) with its text and buttons, the developer
 * switch, and what the screen shows. {@link #allow}, {@link #deny} and {@link #forget} tap the
 * row's button with a touch, after the screen has settled ({@link TouchGuard}), and wait until the
 * decision is recorded and shown.
 *
 * <pre>{@code
 * SettingsScreen screen = SettingsScreen.open();
 * assertEquals(1, screen.rows());
 * screen.allow("com.example.assistant");
 * }</pre>
 *
 * {@link #open()} starts {@link ToolSettingsActivity}, the screen the consent notification opens;
 * {@link #of} reads the {@link ToolSettingsView} inside a screen of your own.
 */
public final class SettingsScreen {
    private final Activity activity;
    private final ToolSettingsView view;

    private SettingsScreen(Activity activity, ToolSettingsView view) {
        this.activity = activity;
        this.view = view;
    }

    /** A new {@link ToolSettingsActivity}, created, started and resumed. */
    public static SettingsScreen open() {
        return of(Robolectric.buildActivity(ToolSettingsActivity.class).setup().get());
    }

    /** The settings in activity, a screen of yours that shows a {@link ToolSettingsView}. */
    public static SettingsScreen of(Activity activity) {
        ToolSettingsView view = find(activity.getWindow().getDecorView());
        if (view == null) {
            throw new AssertionError(activity.getClass().getName() + " shows no ToolSettingsView");
        }
        return new SettingsScreen(activity, view);
    }

    private static @Nullable ToolSettingsView find(View v) {
        if (v instanceof ToolSettingsView) {
            return (ToolSettingsView) v;
        }
        if (v instanceof ViewGroup) {
            for (int i = 0; i < ((ViewGroup) v).getChildCount(); i++) {
                ToolSettingsView found = find(((ViewGroup) v).getChildAt(i));
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /** The screen. */
    public Activity activity() {
        return activity;
    }

    /** The settings view on it. */
    public ToolSettingsView view() {
        return view;
    }

    /** How many calling apps have a row: the views tagged with a package. */
    public int rows() {
        return rowsIn(view);
    }

    private static int rowsIn(View v) {
        int n = v.getTag() instanceof String ? 1 : 0;
        if (v instanceof ViewGroup) {
            for (int i = 0; i < ((ViewGroup) v).getChildCount(); i++) {
                n += rowsIn(((ViewGroup) v).getChildAt(i));
            }
        }
        return n;
    }

    /** The row of pkg, or null when the screen shows none. */
    public @Nullable ViewGroup row(String pkg) {
        // Each row is tagged with its app's package (ToolSettingsView), the only view so tagged.
        return (ViewGroup) view.findViewWithTag(pkg);
    }

    /** What the row of pkg says. */
    public String text(String pkg) {
        return ((TextView) shownRow(pkg).getChildAt(0)).getText().toString();
    }

    /**
     * The button of pkg's row whose text is label, such as "Allow", "Deny" or "Revoke". Fails the
     * test (AssertionError, naming the labels the row has) when there is none.
     */
    public Button button(String pkg, String label) {
        ViewGroup row = shownRow(pkg);
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < row.getChildCount(); i++) {
            if (row.getChildAt(i) instanceof Button) {
                Button b = (Button) row.getChildAt(i);
                if (b.getText().toString().equals(label)) {
                    return b;
                }
                labels.add(b.getText().toString());
            }
        }
        throw new AssertionError("the row of " + pkg + " has no button \"" + label + "\"; its buttons: " + labels);
    }

    private ViewGroup shownRow(String pkg) {
        ViewGroup row = row(pkg);
        if (row == null) {
            throw new AssertionError("the settings screen shows no row for " + pkg);
        }
        return row;
    }

    /** The developer switch: the settings view's only Switch. */
    public Switch developerSwitch() {
        Switch found = null;
        for (int i = 0; i < view.getChildCount(); i++) {
            if (view.getChildAt(i) instanceof Switch) {
                if (found != null) {
                    throw new AssertionError("the settings view has more than one switch");
                }
                found = (Switch) view.getChildAt(i);
            }
        }
        if (found == null) {
            throw new AssertionError("the settings view has no switch");
        }
        return found;
    }

    /** Whether the screen shows a TextView whose text is exactly text. */
    public boolean shows(String text) {
        ArrayList<View> found = new ArrayList<>();
        activity.getWindow().getDecorView().findViewsWithText(found, text, View.FIND_VIEWS_WITH_TEXT);
        for (View v : found) {
            if (v.isShown() && ((TextView) v).getText().toString().equals(text)) {
                return true;
            }
        }
        return false;
    }

    /** Taps Allow on the row of pkg, an app waiting for an answer, and waits until it is allowed. */
    public void allow(String pkg) {
        tap(pkg, R.string.mobilemcp_allow);
        awaitDecision(pkg, Consent.ALLOWED);
    }

    /** Taps Deny on the row of pkg, an app waiting for an answer, and waits until it is denied. */
    public void deny(String pkg) {
        tap(pkg, R.string.mobilemcp_deny);
        awaitDecision(pkg, Consent.DENIED);
    }

    /** Taps Revoke on the row of pkg, an app decided about, and waits until the decision is forgotten. */
    public void forget(String pkg) {
        tap(pkg, R.string.mobilemcp_revoke);
        awaitDecision(pkg, null);
    }

    /**
     * Touches the button labelled label on the row of pkg, down then up, as a finger does once the
     * screen has been in front for {@link TouchGuard#SETTLE_MILLIS}.
     */
    private void tap(String pkg, int label) {
        String text = activity.getString(label);
        ViewGroup row = shownRow(pkg);
        for (int i = 1; i < row.getChildCount(); i++) {
            View child = row.getChildAt(i);
            if (child instanceof Button && text.contentEquals(((Button) child).getText())) {
                SystemClock.sleep(TouchGuard.SETTLE_MILLIS); // Robolectric's clock: the user reads first
                Touch.tap(child, 0);
                return;
            }
        }
        throw new AssertionError("the row of " + pkg + " has no " + text + " button: " + text(pkg));
    }

    /** Waits until pkg's decision is decision (null: none, and no row) and the row shows it. */
    private void awaitDecision(String pkg, @Nullable Consent decision) {
        ToolSettings tool = ToolSettings.get(activity);
        McpToolRule.idleUntil("the decision about " + pkg + " to be " + decision, () -> {
            ToolSettings.Caller caller = null;
            for (ToolSettings.Caller c : tool.getCallers()) {
                if (c.getPackageName().equals(pkg)) {
                    caller = c;
                }
            }
            if (decision == null) {
                return caller == null && row(pkg) == null;
            }
            ViewGroup row = row(pkg);
            // Shown: a decided row is its text and Revoke.
            return caller != null && caller.getConsent() == decision && row != null && row.getChildCount() == 2;
        });
    }
}

package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;

import android.view.View;
import android.view.ViewGroup;
import android.widget.Button;
import android.widget.LinearLayout;
import android.widget.Switch;
import android.widget.TextView;

import io.github.mobilemcp.sdk.ToolSettingsActivity;
import io.github.mobilemcp.sdk.ToolSettingsView;

import java.util.ArrayList;

import org.robolectric.Robolectric;

/**
 * The SDK's settings screen ({@link ToolSettingsActivity}, which the consent notification opens) as
 * a test reads it: a row per calling app (found by its package, the row's tag), with its text and
 * buttons; the developer switch; and whether a text is on screen.
 */
final class SettingsScreen {
    final ToolSettingsActivity activity;
    final ToolSettingsView view;

    private SettingsScreen(ToolSettingsActivity activity) {
        this.activity = activity;
        this.view = activity.getSettingsView();
    }

    /** A new settings screen, created, started and resumed. */
    static SettingsScreen open() {
        return new SettingsScreen(Robolectric.buildActivity(ToolSettingsActivity.class).setup().get());
    }

    /** How many calling apps have a row: the views tagged with a package. */
    int rows() {
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

    /** The row of pkg, or null. */
    LinearLayout row(String pkg) {
        return (LinearLayout) view.rowOf(pkg);
    }

    /** What the row of pkg says. */
    String text(String pkg) {
        return ((TextView) row(pkg).getChildAt(0)).getText().toString();
    }

    /** The row's button number i (0 is the first), after its text. */
    Button button(String pkg, int i) {
        return (Button) row(pkg).getChildAt(1 + i);
    }

    /** The developer switch: the settings view's only Switch. */
    Switch developerSwitch() {
        Switch found = null;
        for (int i = 0; i < view.getChildCount(); i++) {
            if (view.getChildAt(i) instanceof Switch) {
                assertEquals("one switch", null, found);
                found = (Switch) view.getChildAt(i);
            }
        }
        return found;
    }

    /** Whether the screen shows a TextView whose text is exactly text. */
    boolean shows(String text) {
        ArrayList<View> found = new ArrayList<>();
        activity.getWindow().getDecorView().findViewsWithText(found, text, View.FIND_VIEWS_WITH_TEXT);
        for (View v : found) {
            if (v.isShown() && ((TextView) v).getText().toString().equals(text)) {
                return true;
            }
        }
        return false;
    }
}

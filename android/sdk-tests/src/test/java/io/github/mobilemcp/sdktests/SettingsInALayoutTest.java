package io.github.mobilemcp.sdktests;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import android.app.Activity;
import android.text.format.DateFormat;

import io.github.mobilemcp.sdk.ToolSettingsView;
import io.github.mobilemcp.sdk.testing.McpTestRunner;
import io.github.mobilemcp.sdk.testing.internal.WireRule;
import io.github.mobilemcp.sdk.testing.SettingsScreen;

import java.util.Date;

import org.junit.Rule;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.robolectric.Robolectric;

/**
 * The tool's settings inside a screen of the app's own, declared in a layout file: LayoutInflater
 * builds a view with its (Context, AttributeSet) constructor, so ToolSettingsView needs one.
 */
@RunWith(McpTestRunner.class)
public class SettingsInALayoutTest {
    @Rule public final WireRule agent = new WireRule(TestToolService.class).withoutConsent();

    @Test
    public void aLayoutShowsTheSettings_andItsButtonsDecide() {
        agent.settings().deny(TestTool.APP);
        Activity screen = Robolectric.buildActivity(Activity.class).setup().get();
        screen.setContentView(R.layout.settings_in_layout);
        assertTrue(screen.findViewById(R.id.settings) instanceof ToolSettingsView);

        SettingsScreen settings = SettingsScreen.of(screen);
        assertEquals(1, settings.rows());
        String today = DateFormat.getDateFormat(agent.app()).format(new Date());
        assertEquals("io.github.mobilemcp.sdktests (Test tool)\ndenied since " + today, settings.text(TestTool.APP));
        assertTrue(settings.shows("Test tool"));

        settings.forget(TestTool.APP); // the user's tap on Revoke
        assertEquals(0, settings.rows());
    }
}

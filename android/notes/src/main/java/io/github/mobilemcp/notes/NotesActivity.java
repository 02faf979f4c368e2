package io.github.mobilemcp.notes;

import android.app.Activity;
import android.os.Bundle;
import android.widget.TextView;

import io.github.mobilemcp.sdk.Placeholder;

/**
 * PLACEHOLDER for the notes sample tool, which will be written on the SDK's tool service: a screen
 * that shows one of its own strings with one of the sdk's.
 */
public class NotesActivity extends Activity {
    @Override
    protected void onCreate(Bundle savedInstanceState) {
        super.onCreate(savedInstanceState);
        setContentView(R.layout.notes_activity);
        TextView builtOn = findViewById(R.id.built_on);
        builtOn.setText(getString(R.string.notes_built_on, Placeholder.sdkName(this)));
    }
}

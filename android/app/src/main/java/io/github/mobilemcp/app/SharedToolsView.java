package io.github.mobilemcp.app;

import android.content.Context;
import android.widget.LinearLayout;
import android.widget.Switch;

import io.github.mobilemcp.sdk.TouchGuard;
import android.widget.TextView;

import java.util.List;

/**
 * The other apps' Mobile-MCP tools, each with a switch that shares it over the MCP server
 * ({@link Gateway}). Every one is off until the user turns it on. The list follows the gateway:
 * {@link #refresh} finds the tools again off the main thread, and the rows are redrawn on it.
 */
final class SharedToolsView extends LinearLayout {
    private final Gateway gateway;
    private final Runnable changed = () -> post(this::show);

    SharedToolsView(Context context) {
        super(context);
        setOrientation(VERTICAL);
        gateway = Gateway.of(context);
        show();
    }

    /** Finds the tools again; the rows change once that is done. */
    void refresh() {
        gateway.refreshSoon();
    }

    @Override
    protected void onAttachedToWindow() {
        super.onAttachedToWindow();
        gateway.addListener(changed);
    }

    @Override
    protected void onDetachedFromWindow() {
        gateway.removeListener(changed);
        super.onDetachedFromWindow();
    }

    /** One row per tool, as the gateway found them last. */
    void show() {
        removeAllViews();
        Context context = getContext();
        TextView title = new TextView(context);
        title.setText(R.string.shared_tools_title);
        title.setTextAppearance(android.R.style.TextAppearance_Material_Medium);
        addView(title);
        TextView intro = new TextView(context);
        intro.setText(R.string.shared_tools_intro);
        addView(intro);
        List<Gateway.Shareable> tools = gateway.tools();
        if (tools.isEmpty()) {
            TextView none = new TextView(context);
            none.setText(R.string.shared_tools_none);
            addView(none);
            return;
        }
        for (Gateway.Shareable tool : tools) {
            Switch row = new Switch(context);
            row.setText(tool.problem == null
                    ? context.getString(R.string.shared_tool, tool.name, tool.packageName)
                    : context.getString(R.string.shared_tool_problem, tool.name, tool.packageName, tool.problem));
            row.setTag(tool.packageName);
            row.setChecked(tool.shared);
            TouchGuard.protect(row); // sharing a tool grants the desktop agent access to it
            row.setOnCheckedChangeListener((v, on) -> gateway.setShared(tool.packageName, on));
            addView(row);
        }
    }
}

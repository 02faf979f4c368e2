package io.github.mobilemcp.notes;

import io.github.mobilemcp.sdk.McpToolService;
import io.github.mobilemcp.sdk.ToolHandlers;
import io.github.mobilemcp.sdk.ToolResult;

import org.json.JSONArray;

/** The notes tool on the string API, as docs/tool-sdk-java.md shows it (there named NotesToolService). JavaNotesToolTest, in KotlinNotesToolTest.kt, runs it. */
public class JavaNotesToolService extends McpToolService {
    @Override
    protected void registerHandlers(ToolHandlers handlers) {
        Notes notes = new Notes(getApplicationContext());
        handlers.on("create_note", call -> {
            long id = notes.add(call.getString("title"), call.getString("body", ""));
            return ToolResult.success("Created note " + id).put("id", id);
        });
        handlers.check("create_note", call ->
                call.getString("title").trim().isEmpty() ? "title is blank; give the note a title" : null);
        handlers.on("list_notes", call -> {
            JSONArray all = notes.list();
            return ToolResult.success(all.length() == 1 ? "1 note" : all.length() + " notes").put("count", all.length()).put("notes", all);
        });
        handlers.on("delete_note", call -> {
            long id = call.getLong("id");
            if (!notes.delete(id)) {
                return ToolResult.invalidArguments("there is no note " + id + "; list_notes gives the ids");
            }
            return ToolResult.success("Deleted note " + id).put("id", id);
        });
    }
}

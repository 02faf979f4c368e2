package io.github.mobilemcp.notes;

import android.content.Context;
import android.content.SharedPreferences;

import org.json.JSONArray;
import org.json.JSONException;
import org.json.JSONObject;

/** The notes, kept as one JSON array in SharedPreferences. Handlers may run at once: synchronized. */
final class Notes {
    private final SharedPreferences prefs;

    Notes(Context context) {
        prefs = context.getSharedPreferences("notes", Context.MODE_PRIVATE);
    }

    synchronized JSONArray list() throws JSONException {
        return new JSONArray(prefs.getString("notes", "[]"));
    }

    synchronized long add(String title, String body) throws JSONException {
        long id = prefs.getLong("next_id", 1);
        JSONArray all = list().put(new JSONObject().put("id", id).put("title", title).put("body", body));
        prefs.edit().putLong("next_id", id + 1).putString("notes", all.toString()).commit();
        return id;
    }

    synchronized boolean delete(long id) throws JSONException {
        JSONArray all = list(), kept = new JSONArray();
        for (int i = 0; i < all.length(); i++) {
            if (all.getJSONObject(i).getLong("id") != id) {
                kept.put(all.get(i));
            }
        }
        prefs.edit().putString("notes", kept.toString()).commit();
        return kept.length() < all.length();
    }
}

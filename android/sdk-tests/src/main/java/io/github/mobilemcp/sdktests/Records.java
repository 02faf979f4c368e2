package io.github.mobilemcp.sdktests;

import android.content.Context;
import android.content.SharedPreferences;

import org.json.JSONArray;
import org.json.JSONException;

import java.util.ArrayList;
import java.util.List;

/** The texts record_text has recorded, in the app's preferences, oldest first. */
final class Records {
    private final SharedPreferences prefs;

    Records(Context context) {
        prefs = context.getSharedPreferences("records", Context.MODE_PRIVATE);
    }

    /** Records text and returns how many texts are recorded now. */
    synchronized int add(String text) throws JSONException {
        JSONArray all = new JSONArray(prefs.getString("texts", "[]"));
        all.put(text);
        prefs.edit().putString("texts", all.toString()).commit();
        return all.length();
    }

    /** Every recorded text. */
    synchronized List<String> all() {
        List<String> texts = new ArrayList<>();
        try {
            JSONArray all = new JSONArray(prefs.getString("texts", "[]"));
            for (int i = 0; i < all.length(); i++) {
                texts.add(all.getString(i));
            }
        } catch (JSONException e) {
            throw new IllegalStateException("the records are unreadable", e);
        }
        return texts;
    }
}

package io.github.mobilemcp.sdk.internal;

import android.content.ContentProvider;
import android.content.ContentValues;
import android.content.pm.PackageManager;
import android.database.Cursor;
import android.net.Uri;
import android.os.Binder;
import android.os.Bundle;

import org.jspecify.annotations.Nullable;

/**
 * adb's shell-only channel into the tool ({@code content call --method invoke}), which the SDK's
 * manifest declares, exported, under android.permission.DUMP: Android creates it by this name, and
 * no app's code uses it. The SDK runs each call (who may call, and the request).
 */
@InternalApi
public final class AdbProvider extends ContentProvider {
    @Override
    public boolean onCreate() {
        return true;
    }

    @Override
    public Bundle call(String method, @Nullable String arg, @Nullable Bundle extras) {
        boolean dump = getContext().checkCallingPermission(android.Manifest.permission.DUMP) == PackageManager.PERMISSION_GRANTED;
        return Components.provider(getContext()).adbCall(getContext(), method, arg, Binder.getCallingUid(), dump);
    }

    // Not a data provider: the rest of ContentProvider has nothing to give.

    @Override
    public @Nullable Cursor query(Uri uri, String @Nullable [] projection, @Nullable String selection,
            String @Nullable [] selectionArgs, @Nullable String sortOrder) {
        return null;
    }

    @Override
    public @Nullable String getType(Uri uri) {
        return null;
    }

    @Override
    public @Nullable Uri insert(Uri uri, @Nullable ContentValues values) {
        return null;
    }

    @Override
    public int delete(Uri uri, @Nullable String selection, String @Nullable [] selectionArgs) {
        return 0;
    }

    @Override
    public int update(Uri uri, @Nullable ContentValues values, @Nullable String selection, String @Nullable [] selectionArgs) {
        return 0;
    }
}

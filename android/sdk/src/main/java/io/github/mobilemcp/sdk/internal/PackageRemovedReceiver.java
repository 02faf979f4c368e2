package io.github.mobilemcp.sdk.internal;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;

/**
 * The removal of an app from the phone, which the SDK's manifest declares (not exported):
 * Android creates it by this name, and no app's code uses it. The SDK forgets the user's decision
 * about the removed app.
 */
@InternalApi
public final class PackageRemovedReceiver extends BroadcastReceiver {
    @Override
    public void onReceive(Context context, Intent intent) {
        Components.provider(context).packageRemoved(this, context, intent);
    }
}

package io.github.mobilemcp.sdk.internal;

import android.content.BroadcastReceiver;
import android.content.Context;
import android.content.Intent;

/**
 * The consent notification's Deny and dismissal, which the SDK's manifest declares (not
 * exported): Android creates it by this name, and no app's code uses it. The SDK records them.
 */
@InternalApi
public final class ConsentReceiver extends BroadcastReceiver {
    @Override
    public void onReceive(Context context, Intent intent) {
        Components.provider(context).consentBroadcast(this, context, intent);
    }
}

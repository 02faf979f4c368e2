package io.github.mobilemcp.sdk;

import android.content.Context;

/**
 * PLACEHOLDER, to be replaced by the SDK's classes: the smallest sdk code that reads an sdk
 * resource through the sdk's own R. The notes test calls it to prove that library resources work:
 * the sdk's R has non-constant ids, so this reads R.string.mobilemcp_sdk_name when it runs, from the
 * R that the app's build generated for this package with the app's ids.
 */
public final class Placeholder {
    private Placeholder() {}

    /** The sdk's name, from its string resource, as the app using the sdk resolves it. */
    public static String sdkName(Context context) {
        return context.getString(R.string.mobilemcp_sdk_name);
    }
}

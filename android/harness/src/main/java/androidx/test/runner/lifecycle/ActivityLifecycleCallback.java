package androidx.test.runner.lifecycle;

import android.app.Activity;

/** Stand-in (androidx.test:monitor): used by Robolectric's FragmentController. */
public interface ActivityLifecycleCallback {
    void onActivityLifecycleChanged(Activity activity, Stage stage);
}

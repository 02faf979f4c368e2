// The Android Gradle Plugin, one version for every module (each applies the plugin it needs).
// harness/ is not a Gradle project: it holds what only the Maven host harness needs.
plugins {
    id("com.android.application") version "8.7.3" apply false
    id("com.android.library") version "8.7.3" apply false
}

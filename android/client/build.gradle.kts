// The client library for assistant apps (io.github.mobilemcp.client): Android framework only.
// `gradle :client:assembleRelease` in android/ builds its AAR; an agent app may instead copy
// src/main/java. Its identity and the shared layout are set as for every module, in
// ../build.gradle.kts.
plugins {
    id("com.android.library")
}

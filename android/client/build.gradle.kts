// The client library for assistant apps (io.github.mobilemcp.client): the Android framework, the
// protocol vocabulary and JSpecify's nullness annotations only. `gradle :client:assembleRelease` in
// android/ builds its AAR. Its identity and the shared layout are set as for every module, in ../build.gradle.kts.
plugins {
    id("com.android.library")
    // Published as io.github.mobilemcp:client (../build.gradle.kts).
    `maven-publish`
}

dependencies {
    // The vocabulary it shares with tools (ErrorCode, Consent): an api dependency, because Reply and
    // awaitConsent return its types.
    api(project(":protocol"))
    // @NullMarked and @Nullable on the public API, which Kotlin reads as String and String?: an api
    // dependency, so that agent apps' compilers see them. Annotations only.
    api(libs.jspecify)
    // kotlin.RequiresOptIn, which makes @ProviderFormatApi an opt-in for Kotlin callers: compile
    // only, so that the client depends on nothing else at run time.
    compileOnly(libs.kotlin.stdlib)
}

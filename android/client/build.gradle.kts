// The client library for assistant apps (io.github.mobilemcp.client): the Android framework and
// JSpecify's nullness annotations only. `gradle :client:assembleRelease` in android/ builds its AAR;
// an agent app may instead copy src/main/java and depend on org.jspecify:jspecify itself. Its
// identity and the shared layout are set as for every module, in ../build.gradle.kts.
plugins {
    id("com.android.library")
    // Published as io.github.mobilemcp:client (../build.gradle.kts).
    `maven-publish`
}

dependencies {
    // @NullMarked and @Nullable on the public API, which Kotlin reads as String and String?: an api
    // dependency, so that agent apps' compilers see them. Annotations only.
    api(libs.jspecify)
    // kotlin.RequiresOptIn, which makes @ProviderFormatApi an opt-in for Kotlin callers: compile
    // only, so that the client depends on nothing else at run time.
    compileOnly(libs.kotlin.stdlib)
}

// io.github.mobilemcp:sdk-ktx, the sdk's Kotlin extensions (suspending handlers), an Android library.
// Its identity, the shared layout and its publication are set as for every library, in
// ../build.gradle.kts; the versions are in ../gradle/libs.versions.toml.
//
// The sdk is compileOnly: apps depend on the sdk themselves (docs/tool-sdk.md), so the published
// POM names only the coroutines library. The tests in src/test run in the host harness only.
plugins {
    id("com.android.library")
    id("org.jetbrains.kotlin.android")
    `maven-publish`
}

android {
    sourceSets.getByName("test") {
        kotlin.setSrcDirs(emptyList<String>())
    }
}

kotlin {
    compilerOptions {
        // The Java level every module compiles to (../build.gradle.kts).
        jvmTarget.set(org.jetbrains.kotlin.gradle.dsl.JvmTarget.JVM_11)
    }
}

dependencies {
    compileOnly(project(":sdk"))
    api(libs.kotlinx.coroutines.core)
}

// io.github.mobilemcp:client-ktx, Kotlin for assistants on the client library (suspending calls, a
// Flow of the installed tools, kotlinx.serialization JSON), an Android library. Its identity, the
// shared layout and its publication are set as for every library, in ../build.gradle.kts; the
// versions are in ../gradle/libs.versions.toml. The tests in src/test run in the host harness only.
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
    // The client is this library's API: an assistant that adds client-ktx gets it too.
    api(project(":client"))
    api(libs.kotlinx.coroutines.core)
    api(libs.kotlinx.serialization.json)
}

// The client library for assistant apps (io.github.mobilemcp.client): Android framework only.
// `gradle :client:assembleRelease` in android/ builds its AAR; an agent app may instead copy
// src/main/java. The tests in src/test run in the host harness (pom.xml), not here.
plugins {
    id("com.android.library")
}

fun prop(name: String): String = property(name).toString()

android {
    namespace = prop("mobilemcp.namespace")
    compileSdk = prop("mobilemcp.compileSdk").toInt()

    defaultConfig {
        minSdk = prop("mobilemcp.minSdk").toInt()
    }

    sourceSets {
        getByName("main") {
            manifest.srcFile("AndroidManifest.xml")
        }
        getByName("test") {
            java.setSrcDirs(emptyList<String>())
            resources.setSrcDirs(emptyList<String>())
        }
    }

    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_11
        targetCompatibility = JavaVersion.VERSION_11
    }
}

// The notes sample tool for devices: `make notes-apk` builds it (after `make aar`). It is built on
// the sdk alone, as any tool app would be. Same needs and layout as ../app (see its build file).
plugins {
    id("com.android.application")
}

fun prop(name: String): String = property(name).toString()

android {
    namespace = prop("mobilemcp.applicationId")
    compileSdk = prop("mobilemcp.compileSdk").toInt()

    defaultConfig {
        applicationId = prop("mobilemcp.applicationId")
        minSdk = prop("mobilemcp.minSdk").toInt()
        targetSdk = prop("mobilemcp.targetSdk").toInt()
        versionCode = 1
        versionName = "0.1.0"
    }

    sourceSets {
        getByName("main") {
            manifest.srcFile("AndroidManifest.xml")
            res.setSrcDirs(listOf("res"))
        }
        // The tests in src/test run in the host harness (pom.xml, make test-android), not here.
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

dependencies {
    implementation(project(":sdk"))
}

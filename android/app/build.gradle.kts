// The mobilemcp SMS app for devices: `make apk` builds it (after `make aar`). Needs the Android SDK
// (platform 34, build-tools), a JDK 17 and Gradle 8.9 or newer; make checks them and says what is
// missing.
//
// The sources are shared with the host test harness (pom.xml), so the layout is not Gradle's default:
// the manifest sits next to this file, and the resources are in res/ (generated in part by
// `mobilemcp gen`). The Go engine and gobind's Java come with the sdk.
plugins {
    id("com.android.application")
}

// The app's identity is in this module's gradle.properties, the SDK levels in ../gradle.properties;
// the host harness reads the same files.
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
        // The same language level the host harness compiles the app with (--release 11).
        sourceCompatibility = JavaVersion.VERSION_11
        targetCompatibility = JavaVersion.VERSION_11
    }

    buildTypes {
        getByName("release") {
            // gobind's Java is reached from JNI by name; the sdk's consumer rules keep it if you
            // turn shrinking on.
            isMinifyEnabled = false
        }
    }
}

dependencies {
    implementation(project(":sdk"))
}

// The mobilemcp app for devices. Needs the Android SDK (platform 34, build-tools), a JDK 17 and
// Gradle 8.9 or newer; `make apk` checks them and says what is missing.
//
// The sources are shared with the host test harness (pom.xml), so the layout is not Gradle's
// default: the manifest sits next to this file, resources come from ../res (generated in part by
// `mobilemcp gen`), and the Go engine with gobind's Java comes from the AAR that `make aar` builds.
plugins {
    id("com.android.application") version "8.7.3"
}

// The app's identity and SDK levels live in gradle.properties, which pom.xml reads as well.
fun prop(name: String): String = providers.gradleProperty(name).get()

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
            // The app, and the agent-side client library (io.github.mobilemcp.client), which
            // depends on nothing but the Android framework.
            java.setSrcDirs(listOf("src/main/java", "src/client/java"))
            res.setSrcDirs(listOf("res"))
        }
    }

    compileOptions {
        // The same language level the host harness compiles the app with (--release 11).
        sourceCompatibility = JavaVersion.VERSION_11
        targetCompatibility = JavaVersion.VERSION_11
    }

    buildTypes {
        getByName("release") {
            // gobind's Java is reached from JNI by name; shrinking would need keep rules for it.
            isMinifyEnabled = false
        }
    }
}

dependencies {
    // gomobile bind's output: go.Seq, io.github.mobilemcp.intentbridge.* and libgojni.so per ABI.
    implementation(files("libs/intentbridge.aar"))
}

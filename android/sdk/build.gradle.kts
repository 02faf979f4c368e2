// The sdk library for devices: `make sdk` builds it (after `make aar`) into build/mobilemcp-sdk.aar.
// Needs the Android SDK (platform 34, build-tools), a JDK 17 and Gradle 8.9 or newer.
//
// The sources are shared with the host test harness (pom.xml), so the layout is not Gradle's default:
// the manifest sits next to this file and the resources are in res/. The Go engine comes from the AAR
// that `make aar` builds, unpacked: AGP refuses a local .aar dependency in a library, so its
// classes.jar is libs/intentbridge.jar and its jni/<abi>/libgojni.so are under jniLibs/.
plugins {
    id("com.android.library")
}

// The identity is in this module's gradle.properties, the SDK levels in ../gradle.properties; the
// host harness reads the same files.
fun prop(name: String): String = property(name).toString()

android {
    namespace = prop("mobilemcp.namespace")
    compileSdk = prop("mobilemcp.compileSdk").toInt()
    // Android lint warns about sdk resources without the prefix: they share each app's namespace.
    resourcePrefix = "mobilemcp_"

    defaultConfig {
        minSdk = prop("mobilemcp.minSdk").toInt()
        consumerProguardFiles("consumer-rules.pro")
    }

    sourceSets {
        getByName("main") {
            manifest.srcFile("AndroidManifest.xml")
            res.setSrcDirs(listOf("res"))
            jniLibs.setSrcDirs(listOf("jniLibs"))
        }
    }

    compileOptions {
        // The same language level the host harness compiles with (--release 11).
        sourceCompatibility = JavaVersion.VERSION_11
        targetCompatibility = JavaVersion.VERSION_11
    }
}

dependencies {
    // gobind's Java: go.Seq and io.github.mobilemcp.intentbridge.*. An api dependency, because the
    // apps call the engine's types; AGP packs the jar into the sdk's AAR.
    api(files("libs/intentbridge.jar"))
}

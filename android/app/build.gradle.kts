// The mobilemcp SMS app for devices: `make apk` builds it (after `make aar`). Needs the Android SDK
// (platform 34, build-tools), a JDK 17 and Gradle 8.9 or newer; make checks them and says what is
// missing. What every tool app shares (identity, SDK levels, the layout the host harness reads too)
// is set in ../build.gradle.kts. The Go engine and gobind's Java come with the sdk.
plugins {
    id("com.android.application")
}

android {
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
    // The SMS capabilities and the gateway call the engine's Java (gobind's), which the sdk keeps
    // to itself (implementation): compiled against here, and packaged once, inside the sdk.
    compileOnly(files("../sdk/libs/intentbridge.jar"))
    // The gateway calls other apps' tools as an assistant does.
    implementation(project(":client"))
}

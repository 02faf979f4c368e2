// The sdk library for devices: `make sdk` builds it (after `make aar`) into build/mobilemcp-sdk.aar.
// Needs the Android SDK (platform 34, build-tools), a JDK 17 and Gradle 8.9 or newer. What every
// module shares (identity, SDK levels, the layout the host harness reads too) is set in
// ../build.gradle.kts.
//
// The Go engine comes from `make aar`: its Java (gobind's, under io.github.mobilemcp.engine.go and
// io.github.mobilemcp.intentbridge) compiled into libs/intentbridge.jar, and each ABI's
// jniLibs/<abi>/libmobilemcp.so. Both end up inside the sdk's own AAR.
plugins {
    id("com.android.library")
    // Published as io.github.mobilemcp:sdk (../build.gradle.kts).
    `maven-publish`
}

android {
    // Android lint warns about sdk resources without the prefix: they share each app's namespace.
    resourcePrefix = "mobilemcp_"

    defaultConfig {
        consumerProguardFiles("consumer-rules.pro")
    }

    sourceSets {
        getByName("main") {
            jniLibs.setSrcDirs(listOf("jniLibs"))
        }
    }
}

dependencies {
    // gobind's Java: the engine's Seq and io.github.mobilemcp.intentbridge.*. The sdk's own code calls
    // it; an app calls the sdk, never the engine, so it stays off the apps' compile classpath. The
    // SMS app and sdk-testing, which reach the engine through the sdk's @InternalApi package, declare
    // it themselves (compileOnly: at run time it comes with the sdk, inside its AAR).
    implementation(files("libs/intentbridge.jar"))
    // JSpecify's nullness annotations on the public API (@NullMarked, @Nullable), which Kotlin reads
    // as String and String?: an api dependency, so that apps' compilers see them.
    api(libs.jspecify)
    // The vocabulary a tool shares with the assistants that call it (ErrorCode, Consent): an api
    // dependency, because ToolResult and McpTool take and return its types.
    api(project(":client"))
    // kotlin.RequiresOptIn, which makes @InternalApi an opt-in for Kotlin callers: compile only, so
    // that the sdk depends on nothing more at run time.
    compileOnly(libs.kotlin.stdlib)
}

// The sdk library for devices: `make sdk` builds it (after `make aar`) into build/mobilemcp-sdk.aar.
// Needs the Android SDK (platform 34, build-tools), a JDK 17 and Gradle 8.9 or newer. What every
// module shares (identity, SDK levels, the layout the host harness reads too) is set in
// ../build.gradle.kts.
//
// The Go engine comes from `make aar`: its Java (gobind's, under io.github.mobilemcp.engine.go and
// io.github.mobilemcp.intentbridge) compiled into libs/intentbridge.jar, and each ABI's
// jniLibs/<abi>/libmobilemcp.so. Both end up inside the sdk's own AAR. The release AAR also carries
// api.jar, the sdk's own classes alone, which is what an app compiles against (below).
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
    // dependency, because ToolResult and ToolSettings take and return its types. Not the client
    // library: a tool app's compile classpath holds no assistant API.
    api(project(":protocol"))
    // kotlin.RequiresOptIn, which makes @InternalApi an opt-in for Kotlin callers: compile only, so
    // that the sdk depends on nothing more at run time.
    compileOnly(libs.kotlin.stdlib)
}

// api.jar at the root of the release AAR: the sdk's own classes, as the release Java compile writes
// them, and none of the engine's. When an app depends on a published AAR, AGP compiles the app
// against the AAR's api.jar alone if it has one; otherwise against classes.jar and every libs/*.jar
// merged. The engine's jar travels in libs/ (AGP packages the implementation jar there), so without
// api.jar the engine's Java would sit on every tool app's compile classpath, as if the sdk exported
// it. At run time nothing changes: classes.jar and libs/intentbridge.jar stay as they are. The POM
// and the module metadata do not change either: they describe the AAR, not what is inside it.
// (Modules of this build that depend on :sdk, such as notes, never read the AAR: implementation
// already keeps the engine off their classpath.)
//
// AGP creates a variant's tasks (compileReleaseJavaWithJavac, bundleReleaseAar, the Zip task that
// writes the AAR) in an afterEvaluate action that it registers when it is applied, which the
// plugins block does before this script runs: this afterEvaluate runs after it, so both tasks
// exist, and tasks.named fails the build loudly, rather than publishing an AAR without api.jar, if
// a later AGP renames them. The tasks themselves stay lazy (register, named, providers).
afterEvaluate {
    val releaseClasses = tasks.named<JavaCompile>("compileReleaseJavaWithJavac").flatMap { it.destinationDirectory }
    val releaseApiJar = tasks.register<Jar>("releaseApiJar") {
        // Classes only: what an annotation processor may write beside them is no part of the API.
        from(releaseClasses) {
            include("**/*.class")
        }
        archiveFileName.set("api.jar")
        destinationDirectory.set(layout.buildDirectory.dir("intermediates/api_jar/release"))
    }
    tasks.named<Zip>("bundleReleaseAar") {
        from(releaseApiJar)
    }
}

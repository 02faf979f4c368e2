// The whole build file of a tool app, as docs/tool-sdk.md shows it, with the version the release
// is about to publish.
plugins {
    id("com.android.application") version "8.7.3"
}

val mobilemcp = providers.gradleProperty("mobilemcp.version").orNull
    ?: error("-Pmobilemcp.version=X.Y.Z names the version to test")

android {
    namespace = "com.example.greeter"
    compileSdk = 35
    defaultConfig {
        applicationId = "com.example.greeter"
        minSdk = 24
        targetSdk = 35
    }
    testOptions {
        // McpToolRule runs the tool on its real resources: its descriptor, its manifest.
        unitTests.isIncludeAndroidResources = true
    }
}

dependencies {
    implementation("io.github.mobilemcp:sdk:$mobilemcp")
    testImplementation("io.github.mobilemcp:sdk-testing:$mobilemcp")
    testImplementation("io.github.mobilemcp:client:$mobilemcp")
}

// The whole build file of a typed tool app, as docs/tool-sdk.md shows it, with the version the
// release is about to publish; and an assistant's test dependency, client-mcp, whose MCP Kotlin SDK
// client calls the tool in GreeterMcpTest.
plugins {
    id("com.android.application") version "8.7.3"
    id("org.jetbrains.kotlin.android") version "2.2.21"
    id("com.google.devtools.ksp") version "2.3.14"
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

// sdk-ksp checks every @McpTool handler against the descriptor and generates handlers.register.
ksp { arg("mobilemcp.descriptor", file("src/main/res/xml/mcp_capabilities.xml").path) }

dependencies {
    implementation("io.github.mobilemcp:sdk:$mobilemcp")
    implementation("io.github.mobilemcp:sdk-ktx:$mobilemcp")
    ksp("io.github.mobilemcp:sdk-ksp:$mobilemcp")
    testImplementation("io.github.mobilemcp:sdk-testing:$mobilemcp")
    testImplementation("io.github.mobilemcp:client:$mobilemcp")
    testImplementation("io.github.mobilemcp:client-mcp:$mobilemcp")
}

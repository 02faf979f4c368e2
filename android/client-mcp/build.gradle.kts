// io.github.mobilemcp:client-mcp, the phone's tools for an MCP Kotlin SDK Client in the assistant's
// process (MobileMcpTransport), an Android library on client-ktx. Its identity, the shared layout and
// its publication are set as for every library, in ../build.gradle.kts; the versions are in
// ../gradle/libs.versions.toml. Its tests are the app module's, in the host harness only.
plugins {
    id("com.android.library")
    id("org.jetbrains.kotlin.android")
    `maven-publish`
}

android {
    defaultConfig {
        // The MCP Kotlin SDK's HTTP transports name ktor, which this library leaves out.
        consumerProguardFiles("consumer-rules.pro")
    }
}

kotlin {
    compilerOptions {
        // The Java level every module compiles to (../build.gradle.kts).
        jvmTarget.set(org.jetbrains.kotlin.gradle.dsl.JvmTarget.JVM_11)
    }
}

dependencies {
    // client-ktx is this library's too; the SDK's Client and Transport are its API. Nothing here
    // speaks HTTP: the SDK comes without ktor.
    api(project(":client-ktx"))
    api(libs.mcp.kotlin.sdk.client) { exclude(group = "io.ktor") }
    implementation(libs.mcp.kotlin.sdk.server) { exclude(group = "io.ktor") }
    // The SDK's logger (kotlin-logging) needs it; ktor brought it.
    implementation(libs.slf4j.api)
}

// The notes sample tool for devices: `make notes-apk` builds it (after `make aar`), and its device
// test (src/androidTest, the pipeline's device step). It is built on the sdk and sdk-ktx alone, as any
// typed tool app would be; what every tool app shares is set in ../build.gradle.kts.
//
// KSP runs sdk-ksp on its Kotlin as a typed tool's build does (docs/tool-sdk.md): every @McpTool
// handler in src/main/kotlin is checked against res/xml/mcp_capabilities.xml, which the option
// mobilemcp.descriptor names, and its registration is generated.
plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
    id("com.google.devtools.ksp")
}

android {
    defaultConfig {
        testInstrumentationRunner = "androidx.test.runner.AndroidJUnitRunner"
    }
}

kotlin {
    compilerOptions {
        // The Java level every module compiles to (../build.gradle.kts).
        jvmTarget.set(org.jetbrains.kotlin.gradle.dsl.JvmTarget.JVM_11)
    }
}

ksp {
    arg("mobilemcp.descriptor", file("res/xml/mcp_capabilities.xml").path)
}

dependencies {
    implementation(project(":sdk"))
    implementation(project(":sdk-ktx"))
    ksp(project(":sdk-ksp"))
    // NotesOnDeviceTest calls the tool as an assistant does, through the client library.
    androidTestImplementation(project(":client"))
    androidTestImplementation(libs.androidx.test.runner)
    androidTestImplementation(libs.junit)
}

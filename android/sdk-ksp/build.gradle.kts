// io.github.mobilemcp:sdk-ksp, the KSP processor of typed tools: it checks every @McpTool handler
// against the app's capability descriptor (the KSP option mobilemcp.descriptor) and generates
// their registration. A plain Kotlin JVM jar that runs inside the compiler (a tool app's
// ksp(...)), never on a device. Its publication is set as for every library, in
// ../build.gradle.kts; the versions are in ../gradle/libs.versions.toml. Its tests (kctfork, golden
// files) run in the host harness only (pom.xml).
plugins {
    kotlin("jvm")
    `maven-publish`
}

java {
    // Gradle, which runs the processor, needs Java 17.
    sourceCompatibility = JavaVersion.VERSION_17
    targetCompatibility = JavaVersion.VERSION_17
    // Maven Central asks for both.
    withSourcesJar()
    withJavadocJar()
}

kotlin {
    compilerOptions {
        jvmTarget.set(org.jetbrains.kotlin.gradle.dsl.JvmTarget.JVM_17)
    }
    sourceSets.getByName("test") {
        kotlin.setSrcDirs(emptyList<String>())
    }
}

dependencies {
    // The compiler that runs the processor brings KSP's API.
    compileOnly(libs.ksp.api)
    implementation(libs.kotlinpoet)
    implementation(libs.kotlinpoet.ksp)
    implementation(libs.re2j)
}

// io.github.mobilemcp:sdk-ktx, the sdk's Kotlin extensions (suspending handlers), an Android library.
// `gradle :sdk-ktx:publishToMavenLocal` publishes it; with -Pmobilemcp.version=V and
// -Pmobilemcp.stagingRepo=DIR, `:sdk-ktx:publishAllPublicationsToStagingRepository` stages it as
// scripts/ci-android.sh stage does the other libraries. Its identity and the shared layout are set
// as for every module, in ../build.gradle.kts; keep the versions in step with ../pom.xml.
//
// The sdk is compileOnly: apps depend on the sdk themselves (docs/tool-sdk.md), so the published
// POM names only the coroutines library. The tests in src/test run in the host harness only.
plugins {
    id("com.android.library")
    id("org.jetbrains.kotlin.android")
    `maven-publish`
}

android {
    sourceSets.getByName("test") {
        kotlin.setSrcDirs(emptyList<String>())
    }
    publishing {
        singleVariant("release") {
            withSourcesJar()
        }
    }
}

kotlin {
    compilerOptions {
        // The Java level every module compiles to (../build.gradle.kts).
        jvmTarget.set(org.jetbrains.kotlin.gradle.dsl.JvmTarget.JVM_11)
    }
}

dependencies {
    compileOnly(project(":sdk"))
    api("org.jetbrains.kotlinx:kotlinx-coroutines-core:1.10.2")
}

publishing {
    publications {
        register<MavenPublication>("release") {
            groupId = "io.github.mobilemcp"
            artifactId = "sdk-ktx"
            version = providers.gradleProperty("mobilemcp.version").getOrElse("0.1.0")
            afterEvaluate {
                from(components["release"])
            }
        }
    }
    repositories {
        providers.gradleProperty("mobilemcp.stagingRepo").orNull?.let { dir ->
            maven {
                name = "Staging"
                url = uri(dir)
            }
        }
    }
}

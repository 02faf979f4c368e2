// Users' Gradle build of the Android modules (docs/internals/pipeline.md). From the repository root,
// `make sdk`, `make apk` and `make notes-apk` run it, after `make aar` has put the Go engine into
// sdk/libs and sdk/jniLibs. The host test harness builds the same sources with Maven (pom.xml).
pluginManagement {
    repositories {
        google()
        mavenCentral()
        gradlePluginPortal()
    }
}

dependencyResolutionManagement {
    repositoriesMode.set(RepositoriesMode.FAIL_ON_PROJECT_REPOS)
    repositories {
        google()
        mavenCentral()
    }
}

rootProject.name = "mobilemcp-android"

include(":protocol", ":sdk", ":client", ":client-ktx", ":client-mcp", ":app", ":notes", ":sdk-testing", ":sdk-tests", ":sdk-ktx")
// The engine jar (a plain Java library) that :sdk-testing depends on.
include(":sdk-testing-engine")
// The KSP processor of typed tools (a plain Kotlin JVM library), which runs in the compiler of a
// tool app's build (ksp(...)) and of the notes sample's.
include(":sdk-ksp")

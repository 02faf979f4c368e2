// A tool developer's project in miniature, built against the released libraries exactly as a user's
// is: from a Maven repository, never from this checkout's modules. The release workflow builds it on
// Linux, macOS and Windows runners against the staging repository (-Pmobilemcp.stagingRepo=DIR) of
// the version it is about to publish (-Pmobilemcp.version=X.Y.Z), and runs its tests (McpToolRule, and
// an MCP Kotlin SDK client through client-mcp): the engine jar must hold an engine for each of those
// machines. The host harness runs the same sources and tests (scripts/test-installed.sh consumer-smoke).
//   ../gradlew -p consumer-smoke -Pmobilemcp.stagingRepo=DIR -Pmobilemcp.version=X.Y.Z test
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
        val staging = providers.gradleProperty("mobilemcp.stagingRepo").orNull
            ?: error("-Pmobilemcp.stagingRepo=DIR names the staging repository the release built")
        maven {
            name = "Staging"
            url = uri(staging)
            content { includeGroup("io.github.mobilemcp") }
        }
        google()
        mavenCentral()
    }
}

rootProject.name = "consumer-smoke"

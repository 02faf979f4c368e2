// Users' build of the mobilemcp app: `make apk` from the repository root runs it (see docs/android.md).
// app/ is a single-project Gradle build; the Go side arrives as libs/intentbridge.aar (`make aar`).
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

rootProject.name = "mobilemcp-app"

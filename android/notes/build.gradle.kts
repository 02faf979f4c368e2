// The notes sample tool for devices: `make notes-apk` builds it (after `make aar`). It is built on
// the sdk alone, as any tool app would be; what every tool app shares is set in ../build.gradle.kts.
plugins {
    id("com.android.application")
}

dependencies {
    implementation(project(":sdk"))
}

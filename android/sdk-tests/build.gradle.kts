// The test tool: a small tool app on the sdk alone, whose tests (src/test, run by the host harness
// only, like every module's) pin the Tool SDK's contract. It builds like any tool app; what every
// module shares is set in ../build.gradle.kts.
plugins {
    id("com.android.application")
}

dependencies {
    implementation(project(":sdk"))
}

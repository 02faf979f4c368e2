// io.github.mobilemcp:sdk-testing, for tool developers' Robolectric tests (testImplementation): the
// test runner and rule. The host engine of every desktop platform comes with it from the engine jar
// it depends on (io.github.mobilemcp:sdk-testing-engine, ../testing-engine): a plain jar, because
// the Android Gradle Plugin drops *.so files from an AAR's Java resources. An Android library, so
// that it can depend on the sdk's AAR; its identity, the shared layout and its publication are set as
// for every library, in ../build.gradle.kts. The host harness builds the same sources (pom.xml);
// the versions are in ../gradle/libs.versions.toml.
plugins {
    id("com.android.library")
    `maven-publish`
}

dependencies {
    // The engines, which McpTestRunner loads: published beside this library, and in its POM.
    api(project(":sdk-testing-engine"))
    // The rule calls the tool service (sdk) and reads replies as agents do (client).
    api(project(":sdk"))
    api(project(":client"))
    // The rule reaches the engine (EngineAccess, for its timeouts), whose Java the sdk keeps to itself:
    // compiled against here; at run time it comes with the sdk's AAR.
    compileOnly(files("../sdk/libs/intentbridge.jar"))
    api(libs.robolectric)
    api(libs.junit)
    api(libs.jspecify)
}

// io.github.mobilemcp:sdk-testing, for tool developers' Robolectric tests (testImplementation): the
// test runner and rule, and the host engine of every desktop platform the release builds, as Java
// resources (scripts/host-engine.sh writes them to ../../build/host-engine for this machine; the
// release pipeline gathers every platform's in ../../build/host-engines). An Android library, so
// that it can depend on the sdk's AAR; its identity, the shared layout and its publication are set as
// for every library, in ../build.gradle.kts. The host harness builds the same sources (pom.xml);
// keep the versions in step with ../pom.xml.
plugins {
    id("com.android.library")
    `maven-publish`
}

android {
    sourceSets.getByName("main") {
        resources.setSrcDirs(listOf("../../build/host-engine", "../../build/host-engines"))
    }
}

dependencies {
    // The rule calls the tool service (sdk) and reads replies as agents do (client).
    api(project(":sdk"))
    api(project(":client"))
    api("org.robolectric:robolectric:4.17")
    api("junit:junit:4.13.2")
    api("org.jspecify:jspecify:1.0.0")
}

// io.github.mobilemcp.sdk.testing, for tool developers' Robolectric tests (testImplementation).
//
// A plain Java library, not an Android one: it only ever runs in JVM unit tests, where Robolectric
// provides Android, so it compiles against Robolectric and android-all from Maven Central, with no
// AGP, SDK or AAR involved. That is also exactly how the host harness builds it (pom.xml).
// Keep the versions in step with ../pom.xml.
plugins {
    `java-library`
}

java {
    sourceCompatibility = JavaVersion.VERSION_11
    targetCompatibility = JavaVersion.VERSION_11
}

dependencies {
    api("org.robolectric:robolectric:4.17")
    // The nullness annotations of the public API (@NullMarked, @Nullable), for tests in Kotlin.
    api("org.jspecify:jspecify:1.0.0")
    compileOnly("org.robolectric:android-all:14-robolectric-10818077")
}

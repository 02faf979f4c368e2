// io.github.mobilemcp:sdk-testing-engine, the engine jar that sdk-testing depends on: the host engine
// of every desktop platform as Java resources, in a plain jar (the Android Gradle Plugin would drop
// the *.so files from an AAR's classes.jar). The release gathers every platform's engine in
// ../../build/host-engines (scripts/host-engine.sh) before it publishes; the host harness builds the
// same jar (pom.xml). Its publication is set as for every library, in ../build.gradle.kts.
plugins {
    `java-library`
    `maven-publish`
}

java {
    // Maven Central asks for both, even of a jar of resources.
    withSourcesJar()
    withJavadocJar()
}

sourceSets.getByName("main") {
    java.setSrcDirs(emptyList<String>())
    resources.setSrcDirs(listOf("../../build/host-engines"))
}

// The sources jar is made from every source of main, resources included, and here the resources are
// the five engines: without this, it would carry them all again (about 20 MB). The engines' sources
// are the Go module, which the POM's scm names; this jar keeps the platforms list and the checksums.
tasks.named<Jar>("sourcesJar") {
    exclude("**/*.so", "**/*.dll", "**/*.dylib")
}

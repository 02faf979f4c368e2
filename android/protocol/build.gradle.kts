// io.github.mobilemcp:protocol, the vocabulary a tool and an assistant share (ErrorCode, Consent):
// a plain Java library with no Android dependency, which the sdk and the client each take as an api
// dependency. Its publication is set as for every library, in ../build.gradle.kts.
plugins {
    `java-library`
    `maven-publish`
}

java {
    // Java 11, as the Android modules' code (../build.gradle.kts); Maven Central asks for both jars.
    sourceCompatibility = JavaVersion.VERSION_11
    targetCompatibility = JavaVersion.VERSION_11
    withSourcesJar()
    withJavadocJar()
}

dependencies {
    // @NullMarked and @Nullable on the public API, which Kotlin reads as String and String?: an api
    // dependency, so that users' compilers see them. Annotations only.
    api(libs.jspecify)
}

// Package androidbuild holds no code: its tests keep the Android modules'
// two builds in step. Users and the hosted pipeline build with Gradle, whose
// versions are the catalog android/gradle/libs.versions.toml; the host tests
// build the same sources with Maven (android/pom.xml). A version that the
// Maven build names differently from the catalog fails make test here.
package androidbuild

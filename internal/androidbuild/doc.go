// Package androidbuild holds no code: its tests keep the Android modules'
// two builds in step. Users and the hosted pipeline build with Gradle, whose
// versions are the catalog android/gradle/libs.versions.toml; the host tests
// build the same sources with Maven (android/pom.xml), and
// ci/release-check.sh writes the POMs of the libraries it stages. A
// version that one of them names differently from the catalog fails make
// test here.
package androidbuild

// Package repotest holds the tests that keep the repository to its own
// rules, and the little code they need. Nothing imports it.
//
// TestImportsFlowDown and TestTheGroundFloorImportsNothingAbove hold the
// module's packages to the layout CONTRIBUTING.md draws, in which data flows
// one way: the engine knows nothing of the SMS product or of any transport,
// the SMS product knows no transport, no package outside the command line
// imports it, and the libraries under internal/ import nothing above them.
//
// TestBoundJava pins the Java API that gobind generates for the bound
// packages (intentbridge, smsapp) in golden files (testdata/), as
// golang.org/x/mobile pins its own bindings, so that what the Android
// modules compile against changes only on purpose. After a change to their
// exported API that is meant, run
//
//	go test ./internal/repotest -run TestBoundJava -update
//
// and commit testdata/.
//
// TestOneVersionOfEachLibrary keeps the Android modules' two builds in step:
// Gradle's catalog (android/gradle/libs.versions.toml) and the Maven build
// of the host tests (android/pom.xml). The workflow tests read the hosted
// pipeline's workflows (.github/workflows) and hold them to the rules a
// release depends on: the rehearsal and the release share one definition of
// the release's jobs, every script step they run is tested, every action is
// pinned; the wrapper tests hold the Gradle wrapper to the version its
// properties name and run gradlew from a Windows-style checkout. A change
// that breaks one fails make test here, before a tag.
package repotest

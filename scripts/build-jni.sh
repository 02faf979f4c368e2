#!/usr/bin/env bash
# build-jni.sh: the engines for the host tests of the Android modules (make test-android), built for
# this machine by scripts/host-engine.sh:
#
#   build/gobind/java/        gobind's Java of the tool engine: io.github.mobilemcp.engine.go.* and
#                             io.github.mobilemcp.intentbridge.* (the classes the AAR holds), which
#                             the sdk module compiles
#   build/gobind/resources/   the build id the sdk records for its engines (io/github/mobilemcp/sdk/
#                             engine-build-id), as make aar records it for the AAR's
#   build/host-engines/       the tool engine for this machine, beside any other platform's that make
#                             host-engines built: the engine jar (android/testing-engine) carries them
#   build/gobind-app/java/    gobind's Java of the SMS app's additions (io.github.mobilemcp.smsapp.*)
#   build/app-engine/         the SMS app's engine (the tool engine and ./smsapp), which only that
#                             app's tests load (-Dmobilemcp.hostEngine, android/app/pom.xml): it is
#                             never published
#   build/jni/                the SMS app's library, for the plain-JVM benchmark (make bench-android)
#   build/coexist/, build/coexist-java/
#                             another gomobile library, built as stock gomobile builds one (go.Seq,
#                             libgojni) from golang.org/x/mobile/example/bind/hello: the testing
#                             module's CoexistenceTest loads it beside the engine in one JVM
#
# No Android SDK, NDK or Android library is involved. It is re-runnable: it rewrites all of them.
set -euo pipefail
cd "$(dirname "$0")/.."

case "$(uname -s)-$(uname -m)" in
Linux-x86_64) platform=linux-x86_64 ;;
Linux-aarch64) platform=linux-aarch64 ;;
Darwin-x86_64) platform=macos-x86_64 ;;
Darwin-arm64) platform=macos-aarch64 ;;
*) platform=windows-x86_64 ;;
esac

rm -rf build/gobind build/gobind-app build/app-engine build/jni build/coexist build/coexist-java
scripts/host-engine.sh "$platform" build/host-engines
mkdir -p build/gobind build/gobind-app/java/io/github/mobilemcp build/jni build/gobind/resources/io/github/mobilemcp/sdk
mv build/host-engines-java build/gobind/java
scripts/host-engine.sh --app "$platform" build/app-engine
mv build/app-engine-java/io/github/mobilemcp/smsapp build/gobind-app/java/io/github/mobilemcp/
rm -rf build/app-engine-java
engine=build/app-engine/io/github/mobilemcp/sdk/testing/engine/$platform
cp "$engine"/*mobilemcp.* build/jni/
rm -f build/jni/*.sha256
cp "$engine/build-id" build/gobind/resources/io/github/mobilemcp/sdk/engine-build-id
scripts/host-engine.sh --stock-names "$platform" build/coexist golang.org/x/mobile/example/bind/hello
echo "build-jni: wrote build/gobind, build/gobind-app, build/host-engines ($platform), build/app-engine, build/jni and build/coexist"

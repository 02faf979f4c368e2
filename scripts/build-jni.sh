#!/usr/bin/env bash
# build-jni.sh: the engine for the host tests of the Android modules (make test-android), built for
# this machine by scripts/host-engine.sh:
#
#   build/gobind/java/        gobind's Java: go.*, io.github.mobilemcp.intentbridge.* and .smsapp.*
#                             (the same classes the AAR holds), which the sdk module compiles
#   build/gobind/resources/   the build id the sdk records for its engines (io/github/mobilemcp/sdk/
#                             engine-build-id), as make aar records it for the AAR's
#   build/host-engine/        the host engine, which the testing library (sdk-testing) carries as
#                             resources and McpTestRunner loads
#   build/jni/libgojni.so     the same library, for the plain-JVM benchmark (make bench-android)
#
# No Android SDK, NDK or Android library is involved. It is re-runnable: it rewrites all four.
set -euo pipefail
cd "$(dirname "$0")/.."

case "$(uname -s)-$(uname -m)" in
Linux-x86_64) platform=linux-x86_64 ;;
Linux-aarch64) platform=linux-aarch64 ;;
Darwin-x86_64) platform=macos-x86_64 ;;
Darwin-arm64) platform=macos-aarch64 ;;
*) platform=windows-x86_64 ;;
esac

rm -rf build/host-engine build/jni build/gobind
scripts/host-engine.sh "$platform" build/host-engine
mkdir -p build/jni build/gobind/resources/io/github/mobilemcp/sdk
engine=build/host-engine/io/github/mobilemcp/sdk/testing/engine/$platform
cp "$engine"/*gojni* build/jni/
rm -f build/jni/*.sha256
cp "$engine/build-id" build/gobind/resources/io/github/mobilemcp/sdk/engine-build-id
echo "build-jni: wrote build/gobind, build/host-engine and build/jni for $platform"

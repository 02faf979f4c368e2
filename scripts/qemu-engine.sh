#!/usr/bin/env bash
# qemu-engine.sh: a real run of the linux-aarch64 host engine on this x86-64 machine. Debian's arm64
# JDK, run by qemu-user (scripts/deps.sh qemu installs both), loads the engine from the engine jar
# through the test runner's own loader (HostEngine), serves a tool with a Java handler, and answers
# one call (EngineCall). It prints that JVM's answer and passes when the call succeeded on aarch64.
#
# Needs make host-engines first (the engine jar's linux-aarch64 engine, in build/host-engines) and
# the compiled testing, sdk and engine jar modules (make test-android compiles them).
#
#   QEMU   default qemu-aarch64;  ARM64_JAVA   default Debian's /usr/lib/jvm/java-17-openjdk-arm64/bin/java
set -euo pipefail
cd "$(dirname "$0")/.."

QEMU=${QEMU:-qemu-aarch64}
ARM64_JAVA=${ARM64_JAVA:-/usr/lib/jvm/java-17-openjdk-arm64/bin/java}

fail() {
	echo "qemu-engine: $*" >&2
	exit 1
}

command -v "$QEMU" >/dev/null 2>&1 || fail "no $QEMU: run scripts/deps.sh qemu (qemu-user)"
[ -x "$ARM64_JAVA" ] || fail "no arm64 JDK at $ARM64_JAVA: run scripts/deps.sh qemu (openjdk-17-jre-headless:arm64)"
engine=build/host-engines/io/github/mobilemcp/sdk/testing/engine/linux-aarch64/libmobilemcp.so
[ -f "$engine" ] || fail "no linux-aarch64 engine at $engine: run make host-engines"
classes=android/sdk-testing/target/test-classes
[ -f "$classes/io/github/mobilemcp/sdk/testing/EngineCall.class" ] ||
	fail "the sdk-testing module's tests are not compiled: run make test-android (or scripts/test-android.sh -pl sdk-testing)"
# The engine jar's classes directory, rebuilt from build/host-engines, so that it holds the aarch64
# engine whatever make test-android last copied there.
jar=build/qemu-engine/engine
rm -rf build/qemu-engine
mkdir -p "$jar"
cp -r build/host-engines/. "$jar/"

cache=$(mktemp -d)
trap 'rm -rf "$cache"' EXIT
start=$(date +%s)
out=$(XDG_CACHE_HOME=$cache "$QEMU" "$ARM64_JAVA" -Xshare:off \
	-cp "android/sdk-testing/target/classes:$classes:android/sdk/target/classes:android/intentbridge/target/classes:$jar" \
	io.github.mobilemcp.sdk.testing.EngineCall 2>&1) || fail "the arm64 JVM under qemu did not answer the call:"$'\n'"$out"
echo "qemu-engine: $(tail -n 1 <<<"$out")"
case "$out" in
"aarch64 linux-aarch64 "*'"status":"success"'*) ;;
*) fail "the answer is not a success from linux-aarch64" ;;
esac
echo "qemu-engine: PASS  linux-aarch64 engine loaded by HostEngine on an arm64 JVM under qemu, one call answered ($(($(date +%s) - start)) s)"

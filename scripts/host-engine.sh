#!/usr/bin/env bash
# host-engine.sh [--app] PLATFORM OUTDIR: builds the engine for a desktop JVM, the one the engine jar
# (io.github.mobilemcp:sdk-testing-engine, android/testing-engine) carries so that a tool's
# Robolectric tests run the real Go engine with no Go, NDK or Android SDK on the developer's machine
# (docs/internals/host-harness.md). It writes
#
#   OUTDIR/io/github/mobilemcp/sdk/testing/engine/PLATFORM/LIBRARY          the library
#   OUTDIR/io/github/mobilemcp/sdk/testing/engine/PLATFORM/LIBRARY.sha256   its SHA-256, in hex
#   OUTDIR/io/github/mobilemcp/sdk/testing/engine/PLATFORM/build-id         the build it came from
#   OUTDIR/io/github/mobilemcp/sdk/testing/engine/platforms                 every PLATFORM in OUTDIR
#
# and gobind's Java beside OUTDIR's engines in OUTDIR-java/ (scripts/engine-glue.sh: the same
# classes the AAR holds). The engine is gobind's cgo and JNI glue over ./intentbridge, the engine
# every tool ships, with the host engines' one check more (--shipped below), stripped, and stamped
# with the build id of scripts/build-id.sh, as make aar stamps the Android ones. LIBRARY is
# libmobilemcp.so, mobilemcp.dll or libmobilemcp.dylib.
#
#   PLATFORM    linux-x86_64 and linux-aarch64 (glibc 2.17 or newer) and windows-x86_64 are
#               cross-built on Linux with zig's C compiler (ZIG, default: the one scripts/deps.sh
#               zig installs in build/tools/ziglang); macos-x86_64 and macos-aarch64 are built on a
#               Mac of that kind with its own C compiler (CC, default cc)
#   --app       binds ./smsapp beside it: the SMS app's engine, which only that app's own tests use
#               (never published)
#   --shipped   the tool engine exactly as apps ship it (make aar builds the Android ones so), which
#               make size measures (scripts/size.sh). Without it, the engine is built with the Go
#               build tag mobilemcp_hostengine, which adds one check a tool's tests then make before
#               the tool ships: that each mcp:pattern of its descriptor is a regular expression, as
#               mobilemcp lint checks (intentbridge/pattern_hostengine.go). The engine apps ship never
#               reads a pattern, and leaves out Go's regexp package, a quarter of its size.
#   --stock-names  builds the library with gobind's own names (go.Seq, libgojni): the coexistence
#               test's stand-in for another gomobile library; with PACKAGE... instead of the engine's
#
#   host-engine.sh index OUTDIR   rewrites OUTDIR's platforms file from the engines it holds (the
#               release assembles them from several runners)
#
#   host-engine.sh tests   the engines of the Android modules' host tests (make test-android), for
#               this machine's platform, into build/:
#
#     build/gobind/java/        gobind's Java of the tool engine: io.github.mobilemcp.engine.go.* and
#                               io.github.mobilemcp.intentbridge.* (the classes the AAR holds), which
#                               the sdk module compiles
#     build/gobind/resources/   the build id the sdk records for its engines (io/github/mobilemcp/sdk/
#                               engine-build-id), as make aar records it for the AAR's
#     build/host-engines/       the tool engine for this machine, beside any other platform's that make
#                               host-engines built: the engine jar (android/sdk-testing-engine) carries them
#     build/gobind-app/java/    gobind's Java of the SMS app's additions (io.github.mobilemcp.smsapp.*)
#     build/app-engine/         the SMS app's engine (the tool engine and ./smsapp), which only that
#                               app's tests load (-Dmobilemcp.hostEngine, android/app/pom.xml): it is
#                               never published
#     build/jni/                the SMS app's library, for the plain-JVM benchmark (make bench-android)
#     build/coexist/, build/coexist-java/
#                               another gomobile library, built as stock gomobile builds one (go.Seq,
#                               libgojni) from golang.org/x/mobile/example/bind/hello: the testing
#                               module's CoexistenceTest loads it beside the engine in one JVM
#
#             No Android SDK, NDK or Android library is involved. It is re-runnable: it rewrites all
#             of them.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

USAGE="usage: scripts/host-engine.sh [--app|--shipped] linux-x86_64|linux-aarch64|windows-x86_64|macos-x86_64|macos-aarch64 OUTDIR
       scripts/host-engine.sh --stock-names PLATFORM OUTDIR PACKAGE...
       scripts/host-engine.sh index OUTDIR
       scripts/host-engine.sh tests"
TOOL_ENGINE="./intentbridge"        # the engine every tool ships
APP_ENGINE="./intentbridge ./smsapp" # the SMS app's: its MCP server, gateway and SMS capabilities too
RESOURCE=io/github/mobilemcp/sdk/testing/engine
# The zig of scripts/deps.sh zig (the ziglang wheel, pinned by version and hash).
ZIG=${ZIG:-$ROOT/build/tools/ziglang/ziglang/zig}

fail() {
	echo "host-engine: $*" >&2
	exit 1
}

# index OUTDIR: the platforms file, one engine's PLATFORM a line, that the engine jar carries and the
# test runner names in its messages.
index() {
	local dir=$1/$RESOURCE p
	mkdir -p "$dir"
	: >"$dir/platforms"
	for p in linux-x86_64 linux-aarch64 macos-x86_64 macos-aarch64 windows-x86_64; do
		if [ -e "$dir/$p/build-id" ]; then echo "$p" >>"$dir/platforms"; fi
	done
}

# This machine's platform, in the names the engine jar keeps engines under.
machine() {
	local os arch
	case "$(uname -s)" in
	Linux) os=linux ;;
	Darwin) os=macos ;;
	MINGW* | MSYS* | CYGWIN*) os=windows ;;
	*) os=$(uname -s) ;;
	esac
	case "$(uname -m)" in
	x86_64 | amd64) arch=x86_64 ;;
	aarch64 | arm64) arch=aarch64 ;;
	*) arch=$(uname -m) ;;
	esac
	echo "$os-$arch"
}

# tests: every engine the host tests use, for this machine (see the list above).
tests() {
	local platform engine
	platform=$(machine)
	rm -rf build/gobind build/gobind-app build/app-engine build/jni build/coexist build/coexist-java
	"$ROOT/scripts/host-engine.sh" "$platform" build/host-engines
	mkdir -p build/gobind build/gobind-app/java/io/github/mobilemcp build/jni build/gobind/resources/io/github/mobilemcp/sdk
	mv build/host-engines-java build/gobind/java
	"$ROOT/scripts/host-engine.sh" --app "$platform" build/app-engine
	mv build/app-engine-java/io/github/mobilemcp/smsapp build/gobind-app/java/io/github/mobilemcp/
	rm -rf build/app-engine-java
	engine=build/app-engine/$RESOURCE/$platform
	cp "$engine"/*mobilemcp.* build/jni/
	rm -f build/jni/*.sha256
	cp "$engine/build-id" build/gobind/resources/io/github/mobilemcp/sdk/engine-build-id
	"$ROOT/scripts/host-engine.sh" --stock-names "$platform" build/coexist golang.org/x/mobile/example/bind/hello
	echo "host-engine: wrote build/gobind, build/gobind-app, build/host-engines ($platform), build/app-engine, build/jni and build/coexist"
}

if [ "${1:-}" = index ]; then
	[ $# = 2 ] || { echo "$USAGE" >&2; exit 2; }
	index "$2"
	echo "host-engine: $2 holds $(tr '\n' ' ' <"$2/$RESOURCE/platforms")"
	exit 0
fi
if [ "${1:-}" = tests ]; then
	[ $# = 1 ] || { echo "$USAGE" >&2; exit 2; }
	tests
	exit 0
fi

packages=$TOOL_ENGINE
stock= # or --stock-names
tags=mobilemcp_hostengine # the host engines' one addition (see --shipped above)
case "${1:-}" in
--app) packages=$APP_ENGINE; shift ;;
--shipped) tags=; shift ;;
--stock-names) stock=--stock-names tags=; shift ;;
esac
if [ -z "$stock" ]; then
	[ $# = 2 ] || { echo "$USAGE" >&2; exit 2; }
else
	[ $# -ge 3 ] || { echo "$USAGE" >&2; exit 2; }
	packages=${*:3}
fi
platform=$1
out=$2


lib=libmobilemcp
[ -z "$stock" ] || lib=libgojni
case "$platform" in
linux-x86_64) goos=linux goarch=amd64 jniinc=linux target=x86_64-linux-gnu.2.17 lib=$lib.so ;;
linux-aarch64) goos=linux goarch=arm64 jniinc=linux target=aarch64-linux-gnu.2.17 lib=$lib.so ;;
windows-x86_64) goos=windows goarch=amd64 jniinc=win32 target=x86_64-windows-gnu lib=${lib#lib}.dll ;;
macos-x86_64) goos=darwin goarch=amd64 jniinc=darwin target='' lib=$lib.dylib ;;
macos-aarch64) goos=darwin goarch=arm64 jniinc=darwin target='' lib=$lib.dylib ;;
*) echo "host-engine: no platform \"$platform\"" >&2; echo "$USAGE" >&2; exit 2 ;;
esac

if [ -z "${JAVA_HOME:-}" ]; then
	javac=$(command -v javac) || fail "javac not found; install a JDK 17 (scripts/deps.sh apt)"
	JAVA_HOME=$(cd "$(dirname "$(readlink -f "$javac" 2>/dev/null || echo "$javac")")/.." && pwd)
fi
[ -e "$JAVA_HOME/include/jni.h" ] || fail "$JAVA_HOME/include/jni.h is missing; JAVA_HOME must be a JDK, not a JRE"
if [ -n "$target" ]; then
	# zig cross-compiles from any Linux machine; glibc 2.17 is the oldest a target may have
	# (Ubuntu 14.04, RHEL 7), and the Windows DLL imports only the system's C runtime.
	[ "$(uname -s)" = Linux ] || fail "$platform is cross-built on Linux (zig); this machine is $(machine)"
	[ -x "$ZIG" ] || fail "no zig at $ZIG: run scripts/deps.sh zig (make deps does), or set ZIG to a zig 0.17"
	cc="$ZIG cc -target $target"
	# Go's -s strips what Go writes; zig's linker keeps the C objects' symbols and debug
	# information unless told, a tenth of the library.
	extld=" -extldflags=-Wl,--strip-all"
	jnimd=$JAVA_HOME/include/linux
	[ "$jniinc" = win32 ] && jnimd=$ROOT/scripts/host-engine/win32 # a Linux JDK has only Linux's jni_md.h
else
	here=$(machine)
	[ "$platform" = "$here" ] ||
		fail "$platform is built on a $platform machine (the release has a runner of each kind); this one is $here"
	cc=${CC:-cc}
	extld=
	command -v "$cc" >/dev/null 2>&1 || fail "no C compiler ($cc); install Xcode's command line tools"
	# The oldest macOS the engine loads on: the oldest Go supports. Without it, Xcode's linker marks
	# the library for the runner's own macOS (the release gate checks the Mach-O load commands).
	export MACOSX_DEPLOYMENT_TARGET=12.0
	jnimd=$JAVA_HOME/include/$jniinc
fi

WORK=build/host-engine-work/$platform-$$ # under build/, which go.mod ignores
rm -rf "$WORK"
trap 'rm -rf "$WORK"' EXIT
# shellcheck disable=SC2086 # one argument per package, and no empty one for no flag
scripts/engine-glue.sh $stock host "$WORK" $packages >/dev/null

# The library, stripped and stamped.
#  -Wno-incompatible-pointer-types  the glue passes JNIEnv** to AttachCurrentThread as the NDK
#                        declares it; OpenJDK's jni.h says void**. The glue builds with -Werror.
id=$(scripts/build-id.sh)
# The Go of go.mod's toolchain line, whatever Go this machine has (the release gate checks it).
GOTOOLCHAIN=$(scripts/go-toolchain.sh)
export GOTOOLCHAIN
dir=$out/$RESOURCE/$platform
rm -rf "$dir"
mkdir -p "$dir"
CGO_ENABLED=1 GOOS=$goos GOARCH=$goarch CC=$cc \
	CGO_CFLAGS="-O2 -Wno-incompatible-pointer-types -I$JAVA_HOME/include -I$jnimd" CGO_LDFLAGS='' \
	go build -trimpath -buildmode=c-shared -tags="$tags" \
	-ldflags="-s -w -X github.com/mobilemcp/mobilemcp/internal/buildinfo.id=$id$extld" \
	-o "$dir/$lib" "./$WORK/glue"
rm -f "$dir/${lib%.*}.h" # cgo's header for C callers; Java needs none
# sha256sum on Linux, shasum on macOS.
if command -v sha256sum >/dev/null 2>&1; then
	sum=(sha256sum)
else
	sum=(shasum -a 256)
fi
(cd "$dir" && "${sum[@]}" "$lib" | cut -d' ' -f1 >"$lib.sha256")
echo "$id" >"$dir/build-id"
rm -rf "$out-java"
mv "$WORK/java" "$out-java"
index "$out"
echo "host-engine: wrote $dir/$lib (build $id, $(wc -c <"$dir/$lib" | tr -d ' ') bytes)"

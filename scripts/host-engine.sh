#!/usr/bin/env bash
# host-engine.sh PLATFORM OUTDIR: builds the engine for a desktop JVM, the one the testing library
# (sdk-testing) carries so that a tool's Robolectric tests run the real Go engine with no Go, NDK or
# Android SDK on the developer's machine (docs/android.md). It writes
#
#   OUTDIR/io/github/mobilemcp/sdk/testing/engine/PLATFORM/LIBRARY          the library
#   OUTDIR/io/github/mobilemcp/sdk/testing/engine/PLATFORM/LIBRARY.sha256   its SHA-256, in hex
#   OUTDIR/io/github/mobilemcp/sdk/testing/engine/PLATFORM/build-id         the build it came from
#
# and leaves gobind's Java (go.*, io.github.mobilemcp.intentbridge.*, .smsapp.*) in build/gobind/java.
# PLATFORM is linux-x86_64, linux-aarch64, macos-x86_64, macos-aarch64 or windows-x86_64, and must be
# the machine's own: the library is gobind's cgo and JNI glue, linked by the machine's C compiler
# against its JDK's headers (the release pipeline builds each on a runner of that kind). LIBRARY is
# what Java's System.mapLibraryName("gojni") names on it. The engine is stamped with the build id of
# scripts/build-id.sh, as make aar stamps the Android ones. No Android library is needed: the glue's
# logging goes to stderr (scripts/host-engine/log.c).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

USAGE="usage: scripts/host-engine.sh linux-x86_64|linux-aarch64|macos-x86_64|macos-aarch64|windows-x86_64 OUTDIR"
PKGS="./intentbridge ./smsapp" # the engine every tool ships, and the SMS app's additions (its tests need them)
JAVAPKG=io.github.mobilemcp     # the Java package prefix, as in make aar
RESOURCE=io/github/mobilemcp/sdk/testing/engine

fail() {
	echo "host-engine: $*" >&2
	exit 1
}

[ $# = 2 ] || { echo "$USAGE" >&2; exit 2; }
platform=$1
out=$2

# This machine's platform, in the names the testing library looks the engine up by.
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

case "$platform" in
linux-x86_64) goos=linux goarch=amd64 jniinc=linux lib=libgojni.so ;;
linux-aarch64) goos=linux goarch=arm64 jniinc=linux lib=libgojni.so ;;
macos-x86_64) goos=darwin goarch=amd64 jniinc=darwin lib=libgojni.dylib ;;
macos-aarch64) goos=darwin goarch=arm64 jniinc=darwin lib=libgojni.dylib ;;
windows-x86_64) goos=windows goarch=amd64 jniinc=win32 lib=gojni.dll ;;
*) echo "host-engine: no platform \"$platform\"" >&2; echo "$USAGE" >&2; exit 2 ;;
esac
here=$(machine)
[ "$platform" = "$here" ] ||
	fail "$platform is built on a $platform machine (the release pipeline has a runner of each kind); this one is $here"

if [ -z "${JAVA_HOME:-}" ]; then
	javac=$(command -v javac) || fail "javac not found; install a JDK 17 (scripts/deps.sh apt)"
	JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$javac")")")
fi
[ -e "$JAVA_HOME/include/jni.h" ] || fail "$JAVA_HOME/include/jni.h is missing; JAVA_HOME must be a JDK, not a JRE"
command -v "${CC:-cc}" >/dev/null 2>&1 || fail "no C compiler (${CC:-cc}); install gcc or clang"

GOBIND=$ROOT/build/gobind
WORK=$ROOT/build/host-engine-work/$platform # under build/, which go.mod ignores
GLUE=$WORK/glue
rm -rf "$GOBIND" "$WORK"
mkdir -p "$GLUE" "$WORK/log"

# 1. gobind, pinned by the tool directive in go.mod: java/ (the Java proxies) and src/gobind/ (the Go
#    and C glue, package main).
# shellcheck disable=SC2086 # one argument per package
go tool gobind -lang=java,go -javapkg="$JAVAPKG" -outdir "$GOBIND" $PKGS

# 2. The glue's files are named *_android.{go,c}, which any other GOOS would drop: rename them. The
#    headers keep their names, because the glue #includes them by name.
cp "$GOBIND/src/gobind/"* "$GLUE/"
for f in "$GLUE/"*_android.go "$GLUE/"*_android.c; do
	mv "$f" "${f/_android./_jni.}"
done

# 3. The glue links -llog: a static liblog.a of log.c answers it, so the library needs nothing of
#    Android's at run time.
"${CC:-cc}" -O2 -fPIC -c -I scripts/host-engine -o "$WORK/log/log.o" scripts/host-engine/log.c
ar rcs "$WORK/log/liblog.a" "$WORK/log/log.o"

# 4. The library, stripped and stamped, built inside the module (go.mod's `ignore ./build` keeps the
#    glue out of ./...).
#  -D__GOBIND_ANDROID__  seq.h picks its JNI variant on this macro; gobind sets it only for
#                        GOOS=android.
#  -Wno-incompatible-pointer-types  the glue passes JNIEnv** to AttachCurrentThread as the NDK
#                        declares it; OpenJDK's jni.h says void**. The glue builds with -Werror.
id=$(scripts/build-id.sh)
export CGO_ENABLED=1 GOOS=$goos GOARCH=$goarch
export CGO_CFLAGS="-O2 -D__GOBIND_ANDROID__ -Wno-incompatible-pointer-types -I$JAVA_HOME/include -I$JAVA_HOME/include/$jniinc -I$ROOT/scripts/host-engine"
export CGO_LDFLAGS="-L$WORK/log"
dir=$out/$RESOURCE/$platform
rm -rf "$dir"
mkdir -p "$dir"
go build -trimpath -buildmode=c-shared \
	-ldflags="-s -w -X github.com/mobilemcp/mobilemcp/internal/buildinfo.id=$id" \
	-o "$dir/$lib" ./build/host-engine-work/"$platform"/glue
rm -f "$dir/${lib%.*}.h" # cgo's header for C callers; Java needs none
# sha256sum on Linux and Windows' Git Bash, shasum on macOS.
if command -v sha256sum >/dev/null 2>&1; then
	sum=(sha256sum)
else
	sum=(shasum -a 256)
fi
(cd "$dir" && "${sum[@]}" "$lib" | cut -d' ' -f1 >"$lib.sha256")
echo "$id" >"$dir/build-id"
echo "host-engine: wrote $dir/$lib (build $id)"

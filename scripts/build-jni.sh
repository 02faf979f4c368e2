#!/usr/bin/env bash
# build-jni.sh: builds the gomobile surface (./intentbridge and ./smsapp) for the host, so that the app's Java
# can call the real Go engine inside Robolectric on a plain JVM:
#
#   build/gobind/java/      gobind's generated Java: go.Seq, go.Universe, go.error and
#                           io.github.mobilemcp.intentbridge.* (the same classes the AAR holds)
#   build/jni/libgojni.so   gobind's Go and C glue, compiled for linux/amd64 against the JDK
#
# No Android SDK or NDK is involved: the glue is plain cgo and JNI. It needs a C compiler, the JDK's
# JNI headers, and <android/log.h> plus liblog from Debian's android-liblog-dev (scripts/deps.sh apt).
# It is re-runnable: it rewrites build/gobind and build/jni each time.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

PKGS="./intentbridge ./smsapp"  # what gomobile binds: the engine every tool ships, and the SMS app's additions
JAVAPKG=io.github.mobilemcp  # Java package prefix, as in `make aar`
GOBIND=$ROOT/build/gobind
JNI=$ROOT/build/jni
GLUE=$JNI/glue               # under build/, which go.mod ignores
LOGDIR=/usr/lib/x86_64-linux-gnu/android

if [ -z "${JAVA_HOME:-}" ]; then
	javac=$(command -v javac) || { echo "build-jni: javac not found; install a JDK 17 (scripts/deps.sh apt)" >&2; exit 1; }
	JAVA_HOME=$(dirname "$(dirname "$(readlink -f "$javac")")")
fi
for f in "$JAVA_HOME/include/jni.h" /usr/include/android/android/log.h "$LOGDIR/liblog.so"; do
	[ -e "$f" ] || { echo "build-jni: $f is missing; run scripts/deps.sh apt" >&2; exit 1; }
done

rm -rf "$GOBIND" "$JNI"
mkdir -p "$GLUE"

# 1. gobind, pinned by the tool directive in go.mod. -lang=java,go writes java/ (the Java proxies)
#    and src/gobind/ (package main: the Go and C glue). -javapkg gives the Java package; without it
#    the classes land in a bare "intentbridge" package.
# shellcheck disable=SC2086 # one argument per package
go tool gobind -lang=java,go -javapkg="$JAVAPKG" -outdir "$GOBIND" $PKGS

# 2. The glue's files are named *_android.{go,c}, so GOOS=linux would silently drop them: rename
#    them to *_jni.*. The headers keep their names, because the glue #includes them by name.
cp "$GOBIND/src/gobind/"* "$GLUE/"
for f in "$GLUE/"*_android.go "$GLUE/"*_android.c; do
	mv "$f" "${f/_android./_jni.}"
done

# 3. The glue is `package main` and imports this module's intentbridge by path, so it is built
#    inside the module: go.mod's `ignore ./build` keeps it out of ./... (go build, vet, test,
#    staticcheck), while naming the directory builds it with the module's own versions and go.sum.
#
#  -D__GOBIND_ANDROID__  seq.h picks its JNI variant on this macro; gobind sets it only for
#                        GOOS=android, so it is set here.
#  -Wno-incompatible-pointer-types  the glue passes JNIEnv** to AttachCurrentThread as the NDK
#                        declares it; OpenJDK's jni.h says void**. The glue builds with -Werror.
#  -I/usr/include/android  <android/log.h>. The glue's own `#cgo LDFLAGS: -llog` finds Debian's
#                        private liblog through -L, and the rpath lets the JVM load libgojni.so
#                        without LD_LIBRARY_PATH.
export CGO_ENABLED=1 GOOS=linux GOARCH=amd64
export CGO_CFLAGS="-O2 -D__GOBIND_ANDROID__ -Wno-incompatible-pointer-types -I$JAVA_HOME/include -I$JAVA_HOME/include/linux -I/usr/include/android"
export CGO_LDFLAGS="-L$LOGDIR -Wl,-rpath,$LOGDIR"
go build -trimpath -buildmode=c-shared -o "$JNI/libgojni.so" ./build/jni/glue

echo "build-jni: wrote build/jni/libgojni.so and build/gobind/java"

#!/usr/bin/env bash
# engine-glue.sh [--stock-names] host|android OUTDIR PACKAGE...: gobind's Java and its cgo/JNI glue
# for PACKAGE... (./intentbridge, the engine every tool ships; ./smsapp beside it for the SMS app),
# under names of the engine's own, so that an app can hold our engine beside any other gomobile
# library (golang/go#56567: both would ship go.Seq and libgojni.so). It writes
#
#   OUTDIR/java/   the Java: io.github.mobilemcp.engine.go.{Seq,Universe,error} (gobind's go.*),
#                  io.github.mobilemcp.<package>.*; Seq loads the library "mobilemcp"
#   OUTDIR/glue/   the Go and C glue, package main, with the JNI symbols and class names to match:
#                  go build -buildmode=c-shared ./OUTDIR/glue makes libmobilemcp.so (mobilemcp.dll,
#                  libmobilemcp.dylib)
#
# Both the host engines (scripts/host-engine.sh) and the Android engines (scripts/android-build.sh)
# are built from it, so the names are the same everywhere. OUTDIR must be inside this module (under
# build/, which go.mod ignores), so that the glue builds against this checkout.
#
#   host      for a desktop JVM: the glue's Android log calls go to stderr (scripts/host-engine/log.c,
#             compiled into the glue), so the library needs nothing of Android's
#   android   for the NDK: the glue links Android's liblog, as gomobile's does
#   --stock-names  gobind's own names (go.Seq, libgojni) and Java packages (no -javapkg), as a stock
#             gomobile bind makes them: the coexistence test's stand-in for another gomobile library
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

USAGE="usage: scripts/engine-glue.sh [--stock-names] host|android OUTDIR PACKAGE..."
JAVAPKG=io.github.mobilemcp # the bound packages' Java package prefix: io.github.mobilemcp.intentbridge
GO_PKG=io.github.mobilemcp.engine.go # where gobind's own classes (go.Seq ...) go
LIBRARY=mobilemcp           # System.loadLibrary's name: libmobilemcp.so, mobilemcp.dll

fail() {
	echo "engine-glue: $*" >&2
	exit 1
}

rename=1
if [ "${1:-}" = --stock-names ]; then
	rename=0
	shift
fi
[ $# -ge 3 ] || { echo "$USAGE" >&2; exit 2; }
target=$1
out=$2
shift 2
case "$target" in
host | android) ;;
*) echo "$USAGE" >&2; exit 2 ;;
esac
mkdir -p "$out"
case "$(cd "$out" && pwd)/" in
"$ROOT"/build/*) ;;
*) fail "OUTDIR $out is not under build/ of this checkout, where the glue builds against its go.mod" ;;
esac

gen=$out/gobind
rm -rf "$out"
mkdir -p "$gen"
# gomobile runs gobind with GOOS=android for an Android build; a host build has no reason to.
goos=$(go env GOOS)
[ "$target" = android ] && goos=android
javapkg=-javapkg=$JAVAPKG
[ "$rename" = 1 ] || javapkg=-lang=java,go # stock: gobind's default Java packages (the flag again is harmless)
GOOS=$goos CGO_ENABLED=1 go tool gobind -lang=java,go "$javapkg" -outdir "$gen" "$@"

# The glue's files are named *_android.{go,c}, which any GOOS but android would drop: the host build
# needs them renamed, and the Android build takes them as well under the new names. The headers keep
# theirs: the glue #includes them by name.
mkdir -p "$out/glue"
cp "$gen/src/gobind/"* "$out/glue/"
for f in "$out/glue/"*_android.go "$out/glue/"*_android.c; do
	mv "$f" "${f/_android./_jni.}"
done
# seq.go picks the JNI variant of the headers with a define set only for GOOS=android, and a darwin
# one whose headers (seq_darwin.h) gobind -lang=java never writes: every build here is the JNI one.
# A -U in CGO_CFLAGS would not do: a package's #cgo flags come after it. (perl, not sed -i, whose
# flags differ between GNU and macOS.)
perl -pi -e 's|^// #cgo android CFLAGS: -D__GOBIND_ANDROID__$|// #cgo CFLAGS: -D__GOBIND_ANDROID__|;
	$_ = "" if m|^// #cgo darwin CFLAGS: -D__GOBIND_DARWIN__$|' "$out/glue/seq.go"
grep -q '^// #cgo CFLAGS: -D__GOBIND_ANDROID__$' "$out/glue/seq.go" ||
	fail "gobind's seq.go no longer has the line '#cgo android CFLAGS: -D__GOBIND_ANDROID__' this script rewrites"
! grep -q '__GOBIND_DARWIN__' "$out/glue/seq.go" || fail "gobind's seq.go still defines __GOBIND_DARWIN__"
# The JNI version the engine needs (gobind's glue declares none).
cp scripts/engine-glue/onload.c "$out/glue/"
if [ "$target" = host ]; then
	# No liblog on a desktop: its one function is answered by log.c, compiled with the glue.
	perl -ni -e 'print unless m|^//#cgo LDFLAGS: -llog$|' "$out/glue/seq_jni.go"
	! grep -q -- '-llog' "$out/glue/seq_jni.go" || fail "gobind's seq_android.go links -llog in a way this script does not remove"
	cp scripts/host-engine/log.c "$out/glue/"
	mkdir -p "$out/glue/android"
	cp scripts/host-engine/android/log.h "$out/glue/android/"
fi

mkdir -p "$out/java"
cp -r "$gen/java/." "$out/java/"
if [ "$rename" = 1 ]; then
	# Java: package go -> io.github.mobilemcp.engine.go, and every reference to its classes.
	gojava=$out/java/${GO_PKG//.//}
	mkdir -p "$gojava"
	mv "$out/java/go/"*.java "$gojava/"
	rmdir "$out/java/go"
	# shellcheck disable=SC2016 # perl's $ENV and $1, not the shell's
	find "$out/java" -name '*.java' -print0 | GO_PKG=$GO_PKG LIBRARY=$LIBRARY xargs -0 perl -pi -e '
		s/^package go;/package $ENV{GO_PKG};/;
		s/(^|[^A-Za-z0-9_.])go\.(Seq|Universe|error)\b/$1$ENV{GO_PKG}.$2/g;
		s/System\.loadLibrary\("gojni"\)/System.loadLibrary("$ENV{LIBRARY}")/'
	# C and Go: the JNI function names (Java_go_Seq_init) and the class names in FindClass and in
	# method signatures ("go/Seq$Ref", "(I)Lgo/Seq$Ref;").
	SLASHED=${GO_PKG//.//} MANGLED=${GO_PKG//./_} perl -pi -e '
		s/\bJava_go_/Java_$ENV{MANGLED}_/g;
		s#(["L])go/(Seq|Universe|error)#$1$ENV{SLASHED}/$2#g' "$out/glue/"*.c "$out/glue/"*.h "$out/glue/"*.go
	# Nothing of gobind's names may be left: a missed one links the wrong class, or none, at run time.
	left=$(grep -rnE '\bJava_go_|["L]go/(Seq|Universe|error)|"gojni"|^package go;|\bimport go\.' "$out/java" "$out/glue" || true)
	[ -z "$left" ] || fail "gobind's own names are left after renaming (a newer gobind?):"$'\n'"$left"
fi
rm -rf "$gen"
echo "engine-glue: wrote $out/java and $out/glue ($target, $*)"

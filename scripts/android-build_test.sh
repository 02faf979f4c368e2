#!/usr/bin/env bash
# Tests of scripts/android-build.sh (make aar, sdk, apk, notes-apk) on a machine without the Android SDK: each
# missing prerequisite stops the build with exit status 1 and a message that names it and how to
# install it, never a stack trace. Fake SDK trees stand in for partial installs; make aar's dry run shows the flags, API level and ABIs of each library it
# links with the NDK's clang, without an NDK; and real ELF files from the host's gcc, linked for 4 KB
# and 16 KB pages, go through the alignment check that ends make aar (mobilemcp check-align), and
# AARs zipped here through the api.jar check that ends make sdk (check-api-jar).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
cases=0
touch "$tmp/start"

# A PATH with go, javac and git (the build id) but certainly without gradle: the wrapper needs none.
mkdir -p "$tmp/bin"
for tool in go javac git bash sed make env dirname mkdir cat head uname unzip grep mktemp rm; do
	ln -s "$(command -v "$tool")" "$tmp/bin/$tool"
done
BASEPATH=$tmp/bin

# expect NAME STATUS FIRST_LINE [SUBSTRING] -- COMMAND...: runs COMMAND with a clean environment
# plus the given assignments, and checks its exit status, the first line of what it printed, and
# that the output holds SUBSTRING and no Go or Java stack trace. The first line is the first that
# starts with "android-build: " (or "usage: "): make echoes the command before it.
expect() {
	local name=$1 status=$2 first=$3 substring=${4:-}
	shift 4
	[ "$1" = -- ] && shift
	cases=$((cases + 1))
	local out got
	out=$(env -i HOME="$tmp/home" PATH="$BASEPATH" "$@" 2>&1)
	got=$?
	local line
	line=$(grep -m1 -E '^(android-build|usage): ' <<<"$out")
	if [ "$got" != "$status" ] || [ "$line" != "$first" ] || ! grep -qF -- "$substring" <<<"$out" ||
		grep -qE 'goroutine |panic:|Exception|at [a-z]+\.' <<<"$out"; then
		echo "FAIL $name: exit $got (want $status)"
		echo "  first line: $line"
		echo "  want:       $first"
		[ -n "$substring" ] && echo "  and:        $substring"
		sed 's/^/  | /' <<<"$out"
		failures=$((failures + 1))
	fi
}

# have FILE...: creates empty files, and their directories, in the fake SDK.
have() {
	local f
	for f in "$@"; do
		mkdir -p "$(dirname "$f")" && touch "$f"
	done
}

mkdir -p "$tmp/home"
# shellcheck disable=SC2016 # the hint prints $ANDROID_HOME as it is, for the user's shell
SDKMANAGER='sdkmanager --sdk_root="$ANDROID_HOME" "platform-tools" "platforms;android-34" "build-tools;34.0.0" "ndk;27.2.12479018"'

expect "aar without ANDROID_HOME" 1 \
	"android-build: ANDROID_HOME is not set, and there is no SDK in ~/Android/Sdk." "$SDKMANAGER" \
	-- scripts/android-build.sh aar

expect "aar with ANDROID_HOME not a directory" 1 \
	"android-build: ANDROID_HOME=$tmp/nowhere is not a directory." "$SDKMANAGER" \
	-- ANDROID_HOME="$tmp/nowhere" scripts/android-build.sh aar

sdk=$tmp/sdk
mkdir -p "$sdk"
expect "aar without a platform" 1 \
	"android-build: no Android platform in $sdk/platforms." "$SDKMANAGER" \
	-- ANDROID_HOME="$sdk" scripts/android-build.sh aar

have "$sdk/platforms/android-34/android.jar"
expect "aar without an NDK" 1 \
	"android-build: no Android NDK in $sdk/ndk, and ANDROID_NDK_HOME is not set." "$SDKMANAGER" \
	-- ANDROID_HOME="$sdk" scripts/android-build.sh aar

expect "aar with a wrong ANDROID_NDK_HOME" 1 \
	"android-build: ANDROID_NDK_HOME=$tmp/nondk is not an NDK (it has no source.properties); unset it to use the NDK in \$ANDROID_HOME/ndk, or install one: sdkmanager \"ndk;27.2.12479018\"" "" \
	-- ANDROID_HOME="$sdk" ANDROID_NDK_HOME="$tmp/nondk" scripts/android-build.sh aar

# Android Studio's default location is used when ANDROID_HOME is unset, as gomobile does.
mkdir -p "$tmp/home/Android/Sdk"
expect "aar finds ~/Android/Sdk" 1 \
	"android-build: no Android platform in $tmp/home/Android/Sdk/platforms." "$SDKMANAGER" \
	-- scripts/android-build.sh aar
rmdir "$tmp/home/Android/Sdk" "$tmp/home/Android"

have "$sdk/ndk/27.2.12479018/source.properties"
expect "apk without build-tools" 1 \
	"android-build: no build-tools in $sdk/build-tools." "$SDKMANAGER" \
	-- ANDROID_HOME="$sdk" scripts/android-build.sh apk

expect "sdk without build-tools" 1 \
	"android-build: no build-tools in $sdk/build-tools." "$SDKMANAGER" \
	-- ANDROID_HOME="$sdk" scripts/android-build.sh sdk

have "$sdk/build-tools/34.0.0/aapt2"

# make sdk checks the AAR it builds with unzip: without one it stops before building anything.
mkdir -p "$tmp/nounzip"
for tool in "$tmp"/bin/*; do
	[ "${tool##*/}" = unzip ] || ln -s "$(readlink "$tool")" "$tmp/nounzip/${tool##*/}"
done
expect "sdk without unzip" 1 \
	"android-build: unzip is not installed; the check of the sdk AAR's api.jar needs it: apt-get install unzip" "" \
	-- ANDROID_HOME="$sdk" PATH="$tmp/nounzip" scripts/android-build.sh sdk

# nothing_built WHAT: no build output is newer than the start of these tests.
nothing_built() {
	local out
	for out in build/aar-work build/intentbridge.aar android/sdk/libs; do
		cases=$((cases + 1))
		if [ "$out" -nt "$tmp/start" ]; then
			echo "FAIL $out was written although $1 failed"
			failures=$((failures + 1))
		fi
	done
}

# Nothing was built by any of these: every check comes first.
nothing_built "a check"

# Gradle needs no install: the committed wrapper passes the check (no gradle is on this PATH), and
# the build goes on to the engine, which the fake NDK (it has no clang) stops.
NOCLANG="android-build: the NDK in $sdk/ndk/27.2.12479018 has no clang at $sdk/ndk/27.2.12479018/toolchains/llvm/prebuilt/linux-x86_64/bin/clang; install a complete NDK: sdkmanager \"ndk;27.2.12479018\""
expect "apk with the Gradle wrapper goes on to build" 1 "$NOCLANG" "" \
	-- ANDROID_HOME="$sdk" scripts/android-build.sh apk
expect "notes apk with the Gradle wrapper goes on to build" 1 "$NOCLANG" "" \
	-- ANDROID_HOME="$sdk" scripts/android-build.sh apk notes
expect "make sdk goes on to build" 2 "$NOCLANG" "make: *** [Makefile" \
	-- ANDROID_HOME="$sdk" make --no-print-directory sdk
nothing_built "the NDK check"

# The wrapper pins Gradle 8.11.1 (what AGP 8.7.3 runs on) by URL and SHA-256.
cases=$((cases + 1))
wrapper=android/gradle/wrapper/gradle-wrapper.properties
if ! grep -qx 'distributionUrl=https\\://services.gradle.org/distributions/gradle-8.11.1-bin.zip' "$wrapper" ||
	! grep -qx 'distributionSha256Sum=f397b287023acdba1e9f6fc5ea72d22dd63669d59ed4a289a29b1a76eee151c6' "$wrapper"; then
	echo "FAIL $wrapper does not pin Gradle 8.11.1 by URL and SHA-256"
	failures=$((failures + 1))
fi

# make aar's dry run: what it would run, with no NDK. The glue under the engine's own names, then
# every ABI's library linked by the NDK's clang for API 24 with 16 KB pages, and the Java against the
# platform's android.jar.
cases=$((cases + 1))
dry=$(env -i HOME="$tmp/home" PATH="$BASEPATH" ANDROID_HOME="$sdk" scripts/android-build.sh aar --dry-run 2>&1)
dryfail() {
	echo "FAIL aar --dry-run: $1"
	sed 's/^/  | /' <<<"$dry"
	failures=$((failures + 1))
}
if ! grep -qx -- 'scripts/engine-glue.sh android build/aar-work ./intentbridge' <<<"$dry"; then
	dryfail "no engine-glue.sh android of ./intentbridge"
fi
clang=$sdk/ndk/27.2.12479018/toolchains/llvm/prebuilt/linux-x86_64/bin/clang
for abi in arm64-v8a:arm64:aarch64-linux-android24 armeabi-v7a:arm:armv7a-linux-androideabi24 x86:386:i686-linux-android24 x86_64:amd64:x86_64-linux-android24; do
	name=${abi%%:*} rest=${abi#*:}
	line=$(grep -- "-o build/aar-work/aar/jni/$name/libmobilemcp.so ./build/aar-work/glue\$" <<<"$dry")
	if [ -z "$line" ]; then
		dryfail "no go build of $name"
	elif ! grep -q -- "GOOS=android GOARCH=${rest%%:*} .*CC=$clang --target=${rest#*:} " <<<"$line"; then
		dryfail "$name is not built for GOARCH ${rest%%:*} by the NDK's clang for ${rest#*:} (API 24)"
	elif ! grep -q -- "-ldflags=-s -w -X github.com/mobilemcp/mobilemcp/internal/buildinfo.id=$(scripts/build-id.sh) -extldflags=-Wl,-z,max-page-size=16384 " <<<"$line"; then
		dryfail "$name is not linked stripped, stamped with the build id and with 16 KB pages"
	elif ! grep -q -- "-trimpath -buildmode=c-shared" <<<"$line"; then
		dryfail "$name is not a -trimpath c-shared library"
	fi
done
if [ "$(grep -c -- '-buildmode=c-shared' <<<"$dry")" != 4 ]; then
	dryfail "not exactly four libraries"
fi
if ! grep -q -- "^javac .*-source 1.8 -target 1.8 -bootclasspath $sdk/platforms/android-34/android.jar" <<<"$dry"; then
	dryfail "gobind's Java is not compiled against the SDK's platform"
fi
# The SMS app's engine binds its additions beside the tool engine; the tool engine alone does not.
cases=$((cases + 1))
if grep -q -- 'smsapp' <<<"$dry"; then
	dryfail "the tool engine binds ./smsapp"
fi
dryapp=$(env -i HOME="$tmp/home" PATH="$BASEPATH" ANDROID_HOME="$sdk" scripts/android-build.sh aar app --dry-run 2>&1)
if ! grep -qx -- 'scripts/engine-glue.sh android build/aar-work ./intentbridge ./smsapp' <<<"$dryapp"; then
	failures=$((failures + 1))
	echo "FAIL aar app --dry-run: no engine-glue.sh of ./intentbridge and ./smsapp"
	sed 's/^/  | /' <<<"$dryapp"
fi
# A release's engines carry its version (ci/pipeline.sh apks sets MOBILEMCP_VERSION), which the SMS
# app's MCP server names in serverInfo; a value that is no version is refused before anything runs.
cases=$((cases + 1))
dryver=$(env -i HOME="$tmp/home" PATH="$BASEPATH" ANDROID_HOME="$sdk" MOBILEMCP_VERSION=1.2.0-rc.1 scripts/android-build.sh aar app --dry-run 2>&1)
if [ "$(grep -c -- '-buildmode=c-shared.* -X github.com/mobilemcp/mobilemcp/internal/buildinfo.version=1.2.0-rc.1 ' <<<"$dryver")" != 4 ]; then
	failures=$((failures + 1))
	echo "FAIL aar app --dry-run with MOBILEMCP_VERSION: not every library is stamped with the version"
	sed 's/^/  | /' <<<"$dryver"
fi
cases=$((cases + 1))
dryver=$(env -i HOME="$tmp/home" PATH="$BASEPATH" ANDROID_HOME="$sdk" MOBILEMCP_VERSION="1.2 -X x=y" scripts/android-build.sh aar --dry-run 2>&1)
if [ $? != 2 ] || [ "$dryver" != "android-build: MOBILEMCP_VERSION 1.2 -X x=y is not a version such as 1.2.0" ]; then
	failures=$((failures + 1))
	echo "FAIL MOBILEMCP_VERSION that is no version: want exit 2 and the refusal"
	sed 's/^/  | /' <<<"$dryver"
fi
for out in build/intentbridge.aar android/sdk/libs; do
	if [ "$out" -nt "$tmp/start" ]; then
		dryfail "$out was written by a dry run"
	fi
done

# The alignment check after make aar (mobilemcp check-align), on real ELF libraries from the
# host's compiler: LOAD segments at 16 KB pass, at 4 KB (NDK r27's default) fail, naming the
# library. go run uses this machine's build cache, so it does not compile from nothing each time.
GOCACHES=(GOCACHE="$(go env GOCACHE)" GOMODCACHE="$(go env GOMODCACHE)")
libs() { # libs DIR PAGE [ABI...]: a libmobilemcp.so linked with max-page-size=PAGE for each ABI
	local dir=$1 page=$2 abi
	shift 2
	for abi in "$@"; do
		mkdir -p "$dir/$abi"
		echo 'int f(void) { return 1; }' >"$tmp/f.c"
		gcc -shared -fPIC -Wl,-z,max-page-size="$page" -Wl,-z,common-page-size="$page" -o "$dir/$abi/libmobilemcp.so" "$tmp/f.c"
	done
}
ABIS_ALL="arm64-v8a armeabi-v7a x86 x86_64"
ALIGN_FAIL='android-build: the native libraries in DIR would not load on Android devices with 16 KB pages (above); build with NDK r28 or newer, or keep -ldflags=-extldflags=-Wl,-z,max-page-size=16384 in scripts/android-build.sh'
# shellcheck disable=SC2086 # one argument per ABI
libs "$tmp/aligned" 16384 $ABIS_ALL
expect "16 KB-aligned libraries pass" 0 "" \
	"libmobilemcp.so of $ABIS_ALL: every LOAD segment aligned to 16 KB or more" \
	-- "${GOCACHES[@]}" scripts/android-build.sh check-align "$tmp/aligned"
libs "$tmp/mixed" 16384 arm64-v8a armeabi-v7a x86
libs "$tmp/mixed" 4096 x86_64
expect "a 4 KB-aligned library fails" 1 "${ALIGN_FAIL/DIR/$tmp/mixed}" \
	"mobilemcp check-align: $tmp/mixed/x86_64/libmobilemcp.so has a LOAD segment aligned to 0x1000, below the 16 KB (0x4000) that devices with 16 KB pages need" \
	-- "${GOCACHES[@]}" scripts/android-build.sh check-align "$tmp/mixed"
libs "$tmp/partial" 16384 arm64-v8a x86_64
expect "a missing ABI fails" 1 "${ALIGN_FAIL/DIR/$tmp/partial}" \
	"mobilemcp check-align: $tmp/partial/armeabi-v7a/libmobilemcp.so is missing; make aar builds every ABI ([arm64-v8a armeabi-v7a x86 x86_64])" \
	-- "${GOCACHES[@]}" scripts/android-build.sh check-align "$tmp/partial"

# The api.jar check after make sdk, on AARs zipped here as AGP lays out the sdk's: classes.jar, the
# engine's jar in libs/, and api.jar, which alone is what an app compiles against when present.
SDKCLASS=io/github/mobilemcp/sdk/ToolSettings.class
ENGINECLASSES=(io/github/mobilemcp/engine/go/Seq.class io/github/mobilemcp/intentbridge/Bridge.class)
# make_jar JAR ENTRY...: JAR holding an empty file at each ENTRY.
make_jar() {
	local out=$1 dir entry
	shift
	dir=$(mktemp -d "$tmp/jar.XXXX")
	for entry in "$@"; do
		mkdir -p "$dir/$(dirname "$entry")" && : >"$dir/$entry"
	done
	(cd "$dir" && zip -q -r -X "$out" .)
}
# sdk_aar NAME [API_JAR]: $tmp/NAME.aar, with API_JAR as its api.jar if one is given.
sdk_aar() {
	local dir=$tmp/$1
	mkdir -p "$dir/libs"
	make_jar "$dir/classes.jar" "$SDKCLASS" io/github/mobilemcp/sdk/JavaHandler.class
	make_jar "$dir/libs/intentbridge.jar" "${ENGINECLASSES[@]}"
	if [ -n "${2:-}" ]; then cp "$2" "$dir/api.jar"; fi
	(cd "$dir" && zip -q -r -X "$tmp/$1.aar" .)
}
make_jar "$tmp/api-good.jar" META-INF/LICENSE "$SDKCLASS"
make_jar "$tmp/api-engine.jar" "$SDKCLASS" "${ENGINECLASSES[@]}"
make_jar "$tmp/api-empty.jar" META-INF/LICENSE
sdk_aar good "$tmp/api-good.jar"
sdk_aar no-api
sdk_aar engine-api "$tmp/api-engine.jar"
sdk_aar empty-api "$tmp/api-empty.jar"
echo 'not a zip' >"$tmp/text.aar"
expect "an sdk AAR with a good api.jar passes" 0 \
	"android-build: $tmp/good.aar: api.jar holds the sdk's classes and none of the engine's" "" \
	-- scripts/android-build.sh check-api-jar "$tmp/good.aar"
expect "an sdk AAR without api.jar fails" 1 \
	"android-build: $tmp/no-api.aar has no api.jar at its root, so an app would compile against the engine's Java in libs/ too; android/sdk/build.gradle.kts adds it to bundleReleaseAar" "" \
	-- scripts/android-build.sh check-api-jar "$tmp/no-api.aar"
expect "an api.jar with the engine's classes fails" 1 \
	"android-build: api.jar in $tmp/engine-api.aar holds 2 of the engine's classes, such as io/github/mobilemcp/engine/go/Seq.class, which would put the engine on every tool app's compile classpath" "" \
	-- scripts/android-build.sh check-api-jar "$tmp/engine-api.aar"
expect "an api.jar without the sdk's classes fails" 1 \
	"android-build: api.jar in $tmp/empty-api.aar holds no io/github/mobilemcp/sdk class, so an app would compile against none of the sdk" "" \
	-- scripts/android-build.sh check-api-jar "$tmp/empty-api.aar"
expect "a file that is no AAR fails" 1 "android-build: $tmp/text.aar is not a zip archive" "" \
	-- scripts/android-build.sh check-api-jar "$tmp/text.aar"
expect "a missing AAR fails" 1 "android-build: $tmp/none.aar: no such AAR" "" \
	-- scripts/android-build.sh check-api-jar "$tmp/none.aar"

# Through make, as users run it: make reports the failed target after the script's message.
for target in aar sdk apk notes-apk; do
	expect "make $target without ANDROID_HOME" 2 \
		"android-build: ANDROID_HOME is not set, and there is no SDK in ~/Android/Sdk." "make: *** [Makefile" \
		-- make --no-print-directory "$target"
done

USAGE="usage: scripts/android-build.sh aar [app] [--dry-run]|sdk|apk [app|notes]|check-align DIR|check-api-jar AAR"
expect "usage" 2 "$USAGE" "" -- scripts/android-build.sh
expect "usage with an unknown app" 2 "$USAGE" "" -- ANDROID_HOME="$sdk" scripts/android-build.sh apk sms
expect "usage with an unknown aar flag" 2 "$USAGE" "" -- ANDROID_HOME="$sdk" scripts/android-build.sh aar --wet-run
expect "usage of check-align without a directory" 2 "$USAGE" "" -- scripts/android-build.sh check-align
expect "usage of check-api-jar without an AAR" 2 "$USAGE" "" -- scripts/android-build.sh check-api-jar

if [ "$failures" -gt 0 ]; then
	echo "android-build_test: $failures of $cases cases failed"
	exit 1
fi
echo "android-build_test: $cases cases passed"

#!/usr/bin/env bash
# Tests of scripts/android-build.sh (make aar, sdk, apk, notes-apk) on a machine without the Android SDK: each
# missing prerequisite stops the build with exit status 1 and a message that names it and how to
# install it, never a stack trace. Fake SDK trees stand in for partial installs.
set -uo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
cases=0
touch "$tmp/start"

# A PATH with go and javac but certainly without gradle.
mkdir -p "$tmp/bin"
for tool in go javac bash sed make env dirname mkdir cat; do
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
GRADLE='android-build: Gradle is not installed. Install Gradle 8.9 or newer (https://gradle.org/install/; or: sdk install gradle) and run make'
expect "apk without Gradle" 1 "$GRADLE apk again." "" \
	-- ANDROID_HOME="$sdk" scripts/android-build.sh apk

expect "sdk without Gradle" 1 "$GRADLE sdk again." "" \
	-- ANDROID_HOME="$sdk" scripts/android-build.sh sdk

expect "notes apk without Gradle" 1 "$GRADLE notes-apk again." "" \
	-- ANDROID_HOME="$sdk" scripts/android-build.sh apk notes

# Nothing was built by any of these: every check comes first.
for out in build/tools/gobind build/intentbridge.aar android/sdk/libs; do
	cases=$((cases + 1))
	if [ "$out" -nt "$tmp/start" ]; then
		echo "FAIL $out was written although a check failed"
		failures=$((failures + 1))
	fi
done

# Through make, as users run it: make reports the failed target after the script's message.
for target in aar sdk apk notes-apk; do
	expect "make $target without ANDROID_HOME" 2 \
		"android-build: ANDROID_HOME is not set, and there is no SDK in ~/Android/Sdk." "make: *** [Makefile" \
		-- make --no-print-directory "$target"
done

USAGE="usage: scripts/android-build.sh aar|sdk|apk [app|notes]"
expect "usage" 2 "$USAGE" "" -- scripts/android-build.sh
expect "usage with an unknown app" 2 "$USAGE" "" -- ANDROID_HOME="$sdk" scripts/android-build.sh apk sms

if [ "$failures" -gt 0 ]; then
	echo "android-build_test: $failures of $cases cases failed"
	exit 1
fi
echo "android-build_test: $cases cases passed"

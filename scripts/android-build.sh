#!/usr/bin/env bash
# android-build.sh aar|apk: the app for devices (docs/android.md). Unlike the host tests, these need
# the Android SDK and NDK; every prerequisite is checked first, and a missing one is named together
# with the command that installs it.
#
#   aar  gomobile bind ./intentbridge -> android/app/libs/intentbridge.aar (Java package io.github.mobilemcp,
#        minimum API 24, all four Android ABIs). Needs ANDROID_HOME with a platform and the NDK.
#   apk  the aar, then the Gradle build in android/app/ -> android/app/build/outputs/apk/debug/app-debug.apk.
#        Also needs build-tools and Gradle.
set -euo pipefail
cd "$(dirname "$0")/.."

MIN_API=24
JAVAPKG=io.github.mobilemcp
AAR=android/app/libs/intentbridge.aar
# What docs/android.md installs; any newer version works too.
SDK_PACKAGES='"platform-tools" "platforms;android-34" "build-tools;34.0.0" "ndk;27.2.12479018"'

fail() {
	echo "android-build: $*" >&2
	exit 1
}

install_hint() {
	cat >&2 <<-EOF
	  Install the Android SDK command-line tools (https://developer.android.com/studio#command-tools),
	  then install the packages and point ANDROID_HOME at the SDK:
	    export ANDROID_HOME=\$HOME/Android/Sdk
	    sdkmanager --sdk_root="\$ANDROID_HOME" $SDK_PACKAGES
	  Android Studio's SDK Manager installs the same packages. See docs/android.md.
	EOF
	exit 1
}

# gomobile falls back to ~/Android/Sdk (Android Studio's default) when ANDROID_HOME is unset; so
# does this, so that both agree on which SDK is used.
check_sdk() {
	if [ -z "${ANDROID_HOME:-}" ]; then
		if [ -n "${ANDROID_SDK_ROOT:-}" ]; then
			ANDROID_HOME=$ANDROID_SDK_ROOT
		elif [ -d "$HOME/Android/Sdk" ]; then
			ANDROID_HOME=$HOME/Android/Sdk
		else
			echo "android-build: ANDROID_HOME is not set, and there is no SDK in ~/Android/Sdk." >&2
			install_hint
		fi
	fi
	[ -d "$ANDROID_HOME" ] || { echo "android-build: ANDROID_HOME=$ANDROID_HOME is not a directory." >&2; install_hint; }
	export ANDROID_HOME
}

# gomobile compiles against the android.jar of a platform at or above the minimum API.
check_platform() {
	local jar
	for jar in "$ANDROID_HOME"/platforms/android-*/android.jar; do
		[ -e "$jar" ] && return
	done
	echo "android-build: no Android platform in $ANDROID_HOME/platforms." >&2
	install_hint
}

# gomobile takes ANDROID_NDK_HOME if set, else the newest NDK in $ANDROID_HOME/ndk, else the old
# $ANDROID_HOME/ndk-bundle.
check_ndk() {
	if [ -n "${ANDROID_NDK_HOME:-}" ]; then
		[ -e "$ANDROID_NDK_HOME/source.properties" ] ||
			fail "ANDROID_NDK_HOME=$ANDROID_NDK_HOME is not an NDK (it has no source.properties); unset it to use the NDK in \$ANDROID_HOME/ndk, or install one: sdkmanager \"ndk;27.2.12479018\""
		return
	fi
	local ndk
	for ndk in "$ANDROID_HOME"/ndk/*/source.properties "$ANDROID_HOME"/ndk-bundle/source.properties; do
		[ -e "$ndk" ] && return
	done
	echo "android-build: no Android NDK in $ANDROID_HOME/ndk, and ANDROID_NDK_HOME is not set." >&2
	install_hint
}

check_build_tools() {
	local tool
	for tool in "$ANDROID_HOME"/build-tools/*/aapt2; do
		[ -e "$tool" ] && return
	done
	echo "android-build: no build-tools in $ANDROID_HOME/build-tools." >&2
	install_hint
}

check_java() {
	command -v javac >/dev/null 2>&1 || fail "javac is not installed; gomobile and Gradle need a JDK 17: apt-get install openjdk-17-jdk-headless"
}

check_gradle() {
	command -v gradle >/dev/null 2>&1 ||
		fail "Gradle is not installed. Install Gradle 8.9 or newer (https://gradle.org/install/; or: sdk install gradle) and run make apk again."
}

build_aar() {
	mkdir -p build/tools android/app/libs
	# gomobile bind runs the gobind it finds on PATH: use the one pinned in go.mod.
	go build -o build/tools/gobind golang.org/x/mobile/cmd/gobind
	echo "android-build: gomobile bind -> $AAR (API $MIN_API, Java package $JAVAPKG)"
	PATH="$PWD/build/tools:$PATH" go tool gomobile bind -v -target=android -androidapi "$MIN_API" \
		-javapkg="$JAVAPKG" -o "$AAR" ./intentbridge
}

build_apk() {
	echo "android-build: gradle assembleDebug in android/app/"
	(cd android/app && gradle --no-daemon assembleDebug)
	echo "android-build: wrote android/app/build/outputs/apk/debug/app-debug.apk; install it with:"
	echo "  adb install -r android/app/build/outputs/apk/debug/app-debug.apk"
}

case "${1:-}" in
aar)
	check_sdk; check_platform; check_ndk; check_java
	build_aar
	;;
apk)
	# Everything is checked before anything is built.
	check_sdk; check_platform; check_ndk; check_java; check_build_tools; check_gradle
	build_aar
	build_apk
	;;
*)
	echo "usage: scripts/android-build.sh aar|apk" >&2
	exit 2
	;;
esac

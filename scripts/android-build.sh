#!/usr/bin/env bash
# android-build.sh aar|sdk|apk [app|notes]: the Android modules for devices (docs/android.md). Unlike
# the host tests, these need the Android SDK and NDK; every prerequisite is checked first, and a
# missing one is named together with the command that installs it.
#
#   aar        gomobile bind ./intentbridge -> build/intentbridge.aar (Java package io.github.mobilemcp,
#              minimum API 24, all four Android ABIs), unpacked for the sdk module: classes.jar to
#              android/sdk/libs/intentbridge.jar, jni/<abi>/libgojni.so to android/sdk/jniLibs/<abi>/.
#              AGP does not let a library depend on a local .aar, hence the two halves.
#              Needs ANDROID_HOME with a platform and the NDK.
#   sdk        the aar, then Gradle's :sdk:assembleRelease -> build/mobilemcp-sdk.aar, the library
#              (engine included) that a tool app adds. Also needs build-tools and Gradle.
#   apk APP    the aar, then Gradle's :APP:assembleDebug -> android/APP/build/outputs/apk/debug/APP-debug.apk,
#              for APP app (the SMS tool, the default) or notes (the sample). The same needs as sdk.
set -euo pipefail
cd "$(dirname "$0")/.."

MIN_API=24
JAVAPKG=io.github.mobilemcp
AAR=build/intentbridge.aar
SDK_AAR=build/mobilemcp-sdk.aar
# What docs/android.md installs; any newer version works too.
SDK_PACKAGES='"platform-tools" "platforms;android-34" "build-tools;34.0.0" "ndk;27.2.12479018"'
USAGE="usage: scripts/android-build.sh aar|sdk|apk [app|notes]"

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
		fail "Gradle is not installed. Install Gradle 8.9 or newer (https://gradle.org/install/; or: sdk install gradle) and run make $1 again."
}

build_aar() {
	mkdir -p build/tools
	# gomobile bind runs the gobind it finds on PATH: use the one pinned in go.mod.
	go build -o build/tools/gobind golang.org/x/mobile/cmd/gobind
	echo "android-build: gomobile bind -> $AAR (API $MIN_API, Java package $JAVAPKG)"
	PATH="$PWD/build/tools:$PATH" go tool gomobile bind -v -target=android -androidapi "$MIN_API" \
		-javapkg="$JAVAPKG" -o "$AAR" ./intentbridge
	echo "android-build: unpacking $AAR into android/sdk/libs and android/sdk/jniLibs"
	rm -rf build/aar android/sdk/libs android/sdk/jniLibs
	mkdir -p build/aar android/sdk/libs
	(cd build/aar && jar xf ../intentbridge.aar)
	mv build/aar/classes.jar android/sdk/libs/intentbridge.jar
	mv build/aar/jni android/sdk/jniLibs
}

# gradle TASK: runs a task of the Gradle build in android/.
gradle_task() {
	echo "android-build: gradle $1 in android/"
	(cd android && gradle --no-daemon "$1")
}

# Everything is checked before anything is built; the aar alone needs no build-tools or Gradle.
check_all() {
	check_sdk; check_platform; check_ndk; check_java; check_build_tools; check_gradle "$1"
}

case "${1:-}" in
aar)
	check_sdk; check_platform; check_ndk; check_java
	build_aar
	;;
sdk)
	check_all sdk
	build_aar
	gradle_task :sdk:assembleRelease
	cp android/sdk/build/outputs/aar/sdk-release.aar "$SDK_AAR"
	echo "android-build: wrote $SDK_AAR; a tool app adds it with implementation(files(\"libs/mobilemcp-sdk.aar\"))"
	;;
apk)
	app=${2:-app}
	case "$app" in
	app) target=apk ;;
	notes) target=notes-apk ;;
	*) echo "$USAGE" >&2; exit 2 ;;
	esac
	check_all "$target"
	build_aar
	gradle_task ":$app:assembleDebug"
	apk=android/$app/build/outputs/apk/debug/$app-debug.apk
	echo "android-build: wrote $apk; install it with:"
	echo "  adb install -r $apk"
	;;
*)
	echo "$USAGE" >&2
	exit 2
	;;
esac

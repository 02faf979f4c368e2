#!/usr/bin/env bash
# android-build.sh aar|sdk|apk [app|notes]: the Android modules for devices (docs/internals/pipeline.md). Unlike
# the host tests, these need the Android SDK and NDK; every prerequisite is checked first, and a
# missing one is named together with the command that installs it.
#
#   aar        the engine every tool app ships, ./intentbridge, for the four Android ABIs (minimum API
#              24), stripped (-trimpath -ldflags "-s -w ..."): gobind's Java and glue under the
#              engine's own names (scripts/engine-glue.sh android: io.github.mobilemcp.engine.go,
#              libmobilemcp.so, the same as the host engines', so that an app can also hold another
#              gomobile library), each ABI's library linked by the NDK's clang with go build, the Java
#              compiled against the platform's android.jar -> build/intentbridge.aar, unpacked for the
#              sdk module: classes.jar to android/sdk/libs/intentbridge.jar, jni/<abi>/libmobilemcp.so
#              to android/sdk/jniLibs/<abi>/. AGP does not let a library depend on a local .aar,
#              hence the two halves. Needs ANDROID_HOME with a platform and the NDK. (gomobile bind
#              would write gobind's own names, which clash with any other gomobile library.)
#   sdk        the aar, then Gradle's :sdk:assembleRelease -> build/mobilemcp-sdk.aar, the library
#              (engine included) that a tool app adds, checked with check-api-jar. Also needs
#              build-tools and Gradle.
#   apk APP    the aar, then Gradle's :APP:assembleDebug -> android/APP/build/outputs/apk/debug/APP-debug.apk,
#              for APP app (the SMS tool, the default) or notes (the sample). The same needs as sdk.
#   aar app    the same with ./smsapp bound beside it: the SMS app's engine (its MCP server, gateway
#              and SMS capabilities); apk app builds it.
#   aar [app] --dry-run
#              checks the prerequisites, then prints the commands it would run and builds nothing:
#              scripts/android-build_test.sh checks them without an NDK.
#   check-align DIR
#              fails unless every <abi>/libmobilemcp.so under DIR has its LOAD segments aligned to 16 KB
#              (mobilemcp check-align; make aar runs it on android/sdk/jniLibs).
#   check-api-jar AAR
#              fails unless AAR has an api.jar at its root that holds the sdk's classes
#              (io/github/mobilemcp/sdk/) and none of the engine's (io/github/mobilemcp/intentbridge/,
#              io/github/mobilemcp/engine/go/): what an app compiles against (sdk runs it).
#
# Gradle: android/gradlew, the committed wrapper, which runs the version (and checks the SHA-256) that
# android/gradle/wrapper/gradle-wrapper.properties pins.
set -euo pipefail
cd "$(dirname "$0")/.."

MIN_API=24
JAVAPKG=io.github.mobilemcp
AAR=build/intentbridge.aar
SDK_AAR=build/mobilemcp-sdk.aar
# What docs/internals/pipeline.md installs; any newer version works too.
SDK_PACKAGES='"platform-tools" "platforms;android-34" "build-tools;34.0.0" "ndk;27.2.12479018"'
USAGE="usage: scripts/android-build.sh aar [app] [--dry-run]|sdk|apk [app|notes]|check-align DIR|check-api-jar AAR"
# Android 15+ devices may use 16 KB memory pages, and then load only native libraries whose LOAD
# segments are aligned to 16 KB; Google Play requires it of apps targeting 35+. NDK r28+ links that
# way by default, r27 and older at 4 KB: this linker flag makes every NDK do it: -extldflags reaches
# the NDK's clang, which links libmobilemcp.so.
PAGE_LDFLAGS="-extldflags=-Wl,-z,max-page-size=16384"
# The libraries ship stripped (-s -w: no symbol table, no DWARF), as every Go-on-Android project
# does: without it each ABI's library is more than twice the size.
# Each engine is stamped with the build id (scripts/build-id.sh) that the sdk records beside it, and
# that the testing library's host engine carries too: its test runner checks that they match.
BUILD_ID=$(scripts/build-id.sh)
LDFLAGS="-s -w -X github.com/mobilemcp/mobilemcp/internal/buildinfo.id=$BUILD_ID $PAGE_LDFLAGS"
# A release stamps its version too (ci/pipeline.sh apks sets MOBILEMCP_VERSION from the tag): the SMS
# app's MCP server names it in serverInfo, as 'mobilemcp version' and the CLI's server name theirs.
# Without it the engine says "devel".
if [ -n "${MOBILEMCP_VERSION:-}" ]; then
	[[ $MOBILEMCP_VERSION =~ ^[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.-]+)?$ ]] ||
		{ echo "android-build: MOBILEMCP_VERSION $MOBILEMCP_VERSION is not a version such as 1.2.0" >&2; exit 2; }
	LDFLAGS+=" -X github.com/mobilemcp/mobilemcp/internal/buildinfo.version=$MOBILEMCP_VERSION"
fi
# Where the sdk records it: a Java resource, which AGP puts in the AAR's classes.jar.
SDK_BUILD_ID=android/sdk/src/main/resources/io/github/mobilemcp/sdk/engine-build-id
# What is bound: the engine every tool app ships, and for the SMS app its additions too.
TOOL_ENGINE=./intentbridge
APP_ENGINE="./intentbridge ./smsapp"

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
	  Android Studio's SDK Manager installs the same packages. See docs/internals/pipeline.md.
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

# gobind's Java is compiled against the android.jar of a platform at or above the minimum API.
check_platform() {
	local jar
	for jar in "$ANDROID_HOME"/platforms/android-*/android.jar; do
		[ -e "$jar" ] && return
	done
	echo "android-build: no Android platform in $ANDROID_HOME/platforms." >&2
	install_hint
}

# The NDK, as gomobile finds it: ANDROID_NDK_HOME if set, else the newest NDK in $ANDROID_HOME/ndk,
# else the old $ANDROID_HOME/ndk-bundle. Sets NDK.
check_ndk() {
	if [ -n "${ANDROID_NDK_HOME:-}" ]; then
		[ -e "$ANDROID_NDK_HOME/source.properties" ] ||
			fail "ANDROID_NDK_HOME=$ANDROID_NDK_HOME is not an NDK (it has no source.properties); unset it to use the NDK in \$ANDROID_HOME/ndk, or install one: sdkmanager \"ndk;27.2.12479018\""
		NDK=$ANDROID_NDK_HOME
		return
	fi
	local ndk
	for ndk in "$ANDROID_HOME"/ndk-bundle/source.properties "$ANDROID_HOME"/ndk/*/source.properties; do
		# The glob sorts by name: the last is the newest.
		[ -e "$ndk" ] && NDK=$(dirname "$ndk")
	done
	[ -n "${NDK:-}" ] && return
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

# check_unzip: the api.jar check after make sdk reads the AAR with unzip.
check_unzip() {
	command -v unzip >/dev/null 2>&1 || fail "unzip is not installed; the check of the sdk AAR's api.jar needs it: apt-get install unzip"
}

check_java() {
	command -v javac >/dev/null 2>&1 || fail "javac is not installed; the engine's Java and Gradle need a JDK 17: apt-get install openjdk-17-jdk-headless"
}

# check_gradle: the Gradle wrapper committed in android/ (gradlew, gradle/wrapper/gradle-wrapper.jar)
# runs the Gradle version gradle-wrapper.properties pins, downloaded and checked against its
# SHA-256; no Gradle needs installing. Sets GRADLE to the command to run.
check_gradle() {
	if [ ! -x android/gradlew ] || [ ! -f android/gradle/wrapper/gradle-wrapper.jar ]; then
		fail "the Gradle wrapper (android/gradlew, android/gradle/wrapper/gradle-wrapper.jar) is missing; restore it: git checkout -- android/gradlew android/gradle/wrapper"
	fi
	GRADLE=./gradlew
}

# check_align DIR: every ABI's libmobilemcp.so under DIR has all its LOAD segments aligned to 16 KB or
# more (mobilemcp check-align, Go's debug/elf; the same check as 'mobilemcp adb check' makes of the
# installed APK). A 4 KB-aligned library fails to load on a 16 KB page device the first time the
# app touches the engine.
check_align() {
	go run ./cmd/mobilemcp check-align "$1" ||
		fail "the native libraries in $1 would not load on Android devices with 16 KB pages (above); build with NDK r28 or newer, or keep -ldflags=$PAGE_LDFLAGS in scripts/android-build.sh"
}

# check_api_jar AAR: the AAR has an api.jar at its root, holding the sdk's classes and none of the
# engine's. An app that depends on the AAR compiles against its api.jar alone when it has one, and
# otherwise against classes.jar and every libs/*.jar, the engine's jar among them: without api.jar
# the engine's Java would be on every tool app's compile classpath (android/sdk/build.gradle.kts
# adds it).
check_api_jar() {
	local aar=$1 dir entries engine
	[ -f "$aar" ] || fail "$aar: no such AAR"
	check_unzip
	entries=$(unzip -Z1 "$aar" 2>/dev/null) || fail "$aar is not a zip archive"
	grep -qx api.jar <<<"$entries" ||
		fail "$aar has no api.jar at its root, so an app would compile against the engine's Java in libs/ too; android/sdk/build.gradle.kts adds it to bundleReleaseAar"
	dir=$(mktemp -d)
	unzip -q "$aar" api.jar -d "$dir"
	entries=$(unzip -Z1 "$dir/api.jar" 2>/dev/null) || { rm -rf "$dir"; fail "api.jar in $aar is not a jar"; }
	rm -rf "$dir"
	grep -q '^io/github/mobilemcp/sdk/.*\.class$' <<<"$entries" ||
		fail "api.jar in $aar holds no io/github/mobilemcp/sdk class, so an app would compile against none of the sdk"
	engine=$(grep -E '^io/github/mobilemcp/(intentbridge|engine/go)/.*\.class$' <<<"$entries" || true)
	[ -z "$engine" ] ||
		fail "api.jar in $aar holds $(grep -c . <<<"$engine") of the engine's classes, such as ${engine%%$'\n'*}, which would put the engine on every tool app's compile classpath"
	echo "android-build: $aar: api.jar holds the sdk's classes and none of the engine's"
}

# The four Android ABIs: ABI:GOARCH:the NDK clang's target prefix (gomobile's table).
ABIS="arm64-v8a:arm64:aarch64-linux-android armeabi-v7a:arm:armv7a-linux-androideabi x86:386:i686-linux-android x86_64:amd64:x86_64-linux-android"
WORK=build/aar-work # under build/, which go.mod ignores: the glue builds against this checkout

# run COMMAND...: runs it, or with --dry-run prints it.
run() {
	if [ "${DRY_RUN:-}" = 1 ]; then
		echo "$*"
	else
		"$@"
	fi
}

# The NDK's clang, which every ABI's library is linked with (its --target says the ABI and API).
ndk_clang() {
	local tag
	case "$(uname -s)" in
	Linux) tag=linux-x86_64 ;;
	Darwin) tag=darwin-x86_64 ;; # the NDK's one host directory for both Mac architectures
	*) tag=windows-x86_64 ;;
	esac
	echo "$NDK/toolchains/llvm/prebuilt/$tag/bin/clang"
}

# The newest platform's android.jar, which gobind's Java is compiled against.
android_jar() {
	local jar newest=
	for jar in "$ANDROID_HOME"/platforms/android-*/android.jar; do
		[ -e "$jar" ] && newest=$jar
	done
	echo "$newest"
}

# build_aar PACKAGE...: the engine of the packages (./intentbridge, the engine every tool app ships;
# the SMS app adds ./smsapp) for every ABI, stripped, into $AAR, unpacked for the sdk module.
build_aar() {
	local clang jar abi name goarch prefix
	clang=$(ndk_clang)
	jar=$(android_jar)
	[ -x "$clang" ] || [ "${DRY_RUN:-}" = 1 ] ||
		fail "the NDK in $NDK has no clang at $clang; install a complete NDK: sdkmanager \"ndk;27.2.12479018\""
	echo "android-build: the engine of $* -> $AAR (API $MIN_API, the four ABIs, stripped)"
	# The Go of go.mod's toolchain line, which every released binary is built with.
	GOTOOLCHAIN=$(scripts/go-toolchain.sh)
	export GOTOOLCHAIN
	run rm -rf "$WORK"
	run scripts/engine-glue.sh android "$WORK" "$@"
	for abi in $ABIS; do
		name=${abi%%:*}
		goarch=${abi#*:}
		prefix=${goarch#*:}
		goarch=${goarch%%:*}
		# GOARM=7 for armeabi-v7a, as gomobile sets it; the other ABIs ignore it.
		run env CGO_ENABLED=1 GOOS=android GOARCH="$goarch" GOARM=7 CC="$clang --target=$prefix$MIN_API" \
			go build -trimpath -buildmode=c-shared -ldflags="$LDFLAGS" -o "$WORK/aar/jni/$name/libmobilemcp.so" "./$WORK/glue"
		run rm -f "$WORK/aar/jni/$name/libmobilemcp.h"
	done
	# gobind's Java, for Java 8 bytecode as gomobile compiles it, against the platform's classes.
	run mkdir -p "$WORK/classes"
	if [ "${DRY_RUN:-}" = 1 ]; then
		echo "javac -encoding UTF-8 -nowarn -Xlint:-options -source 1.8 -target 1.8 -bootclasspath $jar -d $WORK/classes $WORK/java/...java"
		echo "android-build: dry run: nothing was built"
		return
	fi
	find "$WORK/java" -name '*.java' -print0 |
		xargs -0 javac -encoding UTF-8 -nowarn -Xlint:-options -source 1.8 -target 1.8 -bootclasspath "$jar" -d "$WORK/classes"
	(cd "$WORK/classes" && jar cf ../aar/classes.jar .)
	# The AAR: what gomobile writes, under the engine's names.
	printf '<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="io.github.mobilemcp.engine">\n<uses-sdk android:minSdkVersion="%s"/></manifest>\n' "$MIN_API" >"$WORK/aar/AndroidManifest.xml"
	printf -- '-keep class io.github.mobilemcp.engine.go.** { *; }\n-keep class %s.** { *; }\n' "$JAVAPKG" >"$WORK/aar/proguard.txt"
	: >"$WORK/aar/R.txt"
	mkdir -p "$WORK/aar/res"
	local aar=$PWD/$AAR
	rm -f "$aar"
	(cd "$WORK/aar" && zip -q -r -X "$aar" AndroidManifest.xml classes.jar jni proguard.txt R.txt res)
	echo "android-build: unpacking $AAR into android/sdk/libs and android/sdk/jniLibs"
	rm -rf android/sdk/libs android/sdk/jniLibs
	mkdir -p android/sdk/libs
	cp "$WORK/aar/classes.jar" android/sdk/libs/intentbridge.jar
	cp -r "$WORK/aar/jni" android/sdk/jniLibs
	mkdir -p "$(dirname "$SDK_BUILD_ID")"
	echo "$BUILD_ID" >"$SDK_BUILD_ID"
	check_align android/sdk/jniLibs
}

# gradle TASK: runs a task of the Gradle build in android/.
gradle_task() {
	echo "android-build: gradle $1 in android/"
	(cd android && "$GRADLE" --no-daemon "$1")
}

# Everything is checked before anything is built; the aar alone needs no build-tools or Gradle.
check_all() {
	check_sdk; check_platform; check_ndk; check_java; check_build_tools; check_gradle
}

case "${1:-}" in
aar)
	packages=$TOOL_ENGINE
	for arg in "${@:2}"; do
		case "$arg" in
		app) packages=$APP_ENGINE ;;
		--dry-run) DRY_RUN=1 ;;
		*) echo "$USAGE" >&2; exit 2 ;;
		esac
	done
	check_sdk; check_platform; check_ndk; check_java
	# shellcheck disable=SC2086 # one argument per package
	build_aar $packages
	;;
check-align)
	[ -n "${2:-}" ] || { echo "$USAGE" >&2; exit 2; }
	check_align "$2"
	;;
check-api-jar)
	[ -n "${2:-}" ] || { echo "$USAGE" >&2; exit 2; }
	check_api_jar "$2"
	;;
sdk)
	check_all sdk
	check_unzip
	build_aar "$TOOL_ENGINE"
	gradle_task :sdk:assembleRelease
	cp android/sdk/build/outputs/aar/sdk-release.aar "$SDK_AAR"
	check_api_jar "$SDK_AAR"
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
	# The SMS app's engine has its additions; the sdk module it builds on carries whichever is bound.
	if [ "$app" = app ]; then
		# shellcheck disable=SC2086 # one argument per package
		build_aar $APP_ENGINE
	else
		build_aar "$TOOL_ENGINE"
	fi
	gradle_task ":$app:assembleDebug"
	# The notes sample's device test too: the pipeline's device step runs it.
	[ "$app" = notes ] && gradle_task ":notes:assembleDebugAndroidTest"
	apk=android/$app/build/outputs/apk/debug/$app-debug.apk
	echo "android-build: wrote $apk; install it with:"
	echo "  adb install -r $apk"
	;;
*)
	echo "$USAGE" >&2
	exit 2
	;;
esac

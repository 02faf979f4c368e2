#!/usr/bin/env bash
# ci-android.sh STEP ...: the steps of the pipeline in .github/workflows that need the Android SDK,
# an emulator or Maven Central's credentials, which this project's own machines do not have. Each is
# a function here, so that scripts/ci-android_test.sh runs it against fakes (docs/android.md, "The
# pipeline", says what only a hosted runner verifies).
#
#   install-sdk NDK_VERSION   sdkmanager installs the pinned NDK, platform and build-tools, and
#                             records ANDROID_NDK_HOME for the following steps ($GITHUB_ENV)
#   enable-kvm                lets the emulator use /dev/kvm on a hosted Linux runner
#   collect OUTDIR            copies the SDK's AAR and both APKs to OUTDIR and checks every
#                             libmobilemcp.so they carry for 16 KB pages (mobilemcp check-align)
#   device-check REPORT       on a running emulator: mobilemcp adb check for the SMS app, then the
#                             notes sample's steps; every step's PASS or FAIL line goes to REPORT
#   stage VERSION DIR         make sdk, then Gradle publishes sdk, sdk-testing, client and sdk-ktx at VERSION
#                             to the Maven repository DIR (scripts/publish-central.sh uploads it)
#
# Overridable for the tests: SDKMANAGER, ADB (passed to mobilemcp as its adb), MOBILEMCP (a built
# CLI; default: go build it), GRADLE, MAKE.
set -euo pipefail
cd "$(dirname "$0")/.."

PLATFORM="platforms;android-34"
BUILD_TOOLS="build-tools;34.0.0"
SDK_AAR=build/mobilemcp-sdk.aar
APP_APK=android/app/build/outputs/apk/debug/app-debug.apk
NOTES_APK=android/notes/build/outputs/apk/debug/notes-debug.apk
# The notes sample's device test (NotesOnDeviceTest), which make notes-apk builds beside it.
NOTES_TEST_APK=android/notes/build/outputs/apk/androidTest/debug/notes-debug-androidTest.apk
NOTES_TEST_RUNNER=io.github.mobilemcp.notes.test/androidx.test.runner.AndroidJUnitRunner
NOTES_PACKAGE=io.github.mobilemcp.notes
NOTES_TOOL=$NOTES_PACKAGE/.NotesToolService

fail() {
	echo "ci-android: $*" >&2
	exit 1
}

need_args() {
	local want=$1 got=$2 usage=$3
	[ "$got" -eq "$want" ] || { echo "usage: scripts/ci-android.sh $usage" >&2; exit 2; }
}

mobilemcp() {
	if [ -z "${MOBILEMCP:-}" ]; then
		go build -o build/mobilemcp ./cmd/mobilemcp
		MOBILEMCP=build/mobilemcp
	fi
	"$MOBILEMCP" "$@"
}

install_sdk() {
	local ndk=$1 sdkmanager=${SDKMANAGER:-}
	[ -n "${ANDROID_HOME:-}" ] || fail "ANDROID_HOME is not set; the hosted runner sets it to its Android SDK"
	if [ -z "$sdkmanager" ]; then
		sdkmanager=$ANDROID_HOME/cmdline-tools/latest/bin/sdkmanager
		[ -x "$sdkmanager" ] || fail "no sdkmanager at $sdkmanager"
	fi
	# sdkmanager asks to accept each license; the answer is yes.
	yes | "$sdkmanager" --licenses >/dev/null || true
	"$sdkmanager" --install "ndk;$ndk" "$PLATFORM" "$BUILD_TOOLS"
	[ -e "$ANDROID_HOME/ndk/$ndk/source.properties" ] || fail "sdkmanager did not install ndk;$ndk in $ANDROID_HOME/ndk/$ndk"
	echo "ANDROID_NDK_HOME=$ANDROID_HOME/ndk/$ndk" >> "${GITHUB_ENV:-/dev/null}"
}

enable_kvm() {
	echo 'KERNEL=="kvm", GROUP="kvm", MODE="0666", OPTIONS+="static_node=kvm"' |
		sudo tee /etc/udev/rules.d/99-kvm4all.rules >/dev/null
	sudo udevadm control --reload-rules
	sudo udevadm trigger --name-match=kvm
}

# check_libs ARCHIVE DIR_IN_ARCHIVE: unpacks the archive's native libraries and runs check-align on them.
check_libs() {
	local archive=$1 inside=$2 tmp
	tmp=$(mktemp -d)
	unzip -q "$archive" "$inside/*" -d "$tmp" || { rm -rf "$tmp"; fail "$archive has no $inside/ with native libraries"; }
	if ! mobilemcp check-align "$tmp/$inside"; then
		rm -rf "$tmp"
		fail "$archive: a native library would not load with 16 KB pages (above)"
	fi
	rm -rf "$tmp"
}

collect() {
	local out=$1 f
	mkdir -p "$out"
	for f in "$SDK_AAR" "$APP_APK" "$NOTES_APK"; do
		[ -e "$f" ] || fail "$f is missing; make sdk apk notes-apk builds it"
	done
	check_libs "$SDK_AAR" jni
	check_libs "$APP_APK" lib
	check_libs "$NOTES_APK" lib
	cp "$SDK_AAR" "$APP_APK" "$NOTES_APK" "$out"/
	echo "ci-android: collected $(basename "$SDK_AAR"), $(basename "$APP_APK") and $(basename "$NOTES_APK") in $out"
}

# step NAME COMMAND...: runs COMMAND and prints NAME's PASS or FAIL line; the output is kept.
step() {
	local name=$1 output
	shift
	if output=$("$@" 2>&1); then
		printf 'PASS  %s\n' "$name"
		return 0
	fi
	printf 'FAIL  %-18s %s\n' "$name" "$(tail -n 1 <<<"$output")"
	return 1
}

# contains TEXT COMMAND...: COMMAND succeeds and prints TEXT.
contains() {
	local text=$1 output
	shift
	output=$("$@") || { echo "$output"; return 1; }
	grep -qF -- "$text" <<<"$output" || { echo "the output has no \"$text\": $output"; return 1; }
}

notes_steps() {
	local failed=0 adb=${ADB:-adb}
	step notes-install "$adb" install -r "$NOTES_APK" || failed=1
	step notes-discover contains "$NOTES_TOOL" mobilemcp adb discover || failed=1
	# By Intent, as an agent without a callback sends it: a debuggable build runs what only reads.
	step notes-list contains '"status":"success"' mobilemcp adb call --intent --tool "$NOTES_TOOL" list_notes || failed=1
	# By binding through the client library, the user's consent given by the test (NotesOnDeviceTest).
	step notes-test-install "$adb" install -r "$NOTES_TEST_APK" || failed=1
	step notes-create contains 'OK (1 test)' "$adb" shell am instrument -w -e class io.github.mobilemcp.notes.NotesOnDeviceTest "$NOTES_TEST_RUNNER" || failed=1
	step notes-created contains '"count","type":"integer","value":1' mobilemcp adb call --tool "$NOTES_TOOL" list_notes || failed=1
	return $failed
}

device_check() {
	local report=$1
	mkdir -p "$(dirname "$report")"
	# Every step runs, whatever failed before it; the subshell's status says whether any did.
	if ! (
		failed=0
		mobilemcp adb check --apk "$APP_APK" || failed=1
		notes_steps || failed=1
		exit $failed
	) | tee "$report"; then
		fail "a device step failed; $report lists them"
	fi
}

stage() {
	local version=$1 dir=$2
	${MAKE:-make} sdk
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	(cd android && ${GRADLE:-gradle} --no-daemon -Pmobilemcp.version="$version" -Pmobilemcp.stagingRepo="$dir" \
		:sdk:publishAllPublicationsToStagingRepository :testing:publishAllPublicationsToStagingRepository \
		:client:publishAllPublicationsToStagingRepository :sdk-ktx:publishAllPublicationsToStagingRepository)
	echo "ci-android: staged io.github.mobilemcp $version in $dir"
}

[ $# -ge 1 ] || { echo "usage: scripts/ci-android.sh install-sdk|enable-kvm|collect|device-check|stage ..." >&2; exit 2; }
cmd=$1
shift
case "$cmd" in
install-sdk) need_args 1 $# "install-sdk NDK_VERSION"; install_sdk "$1" ;;
enable-kvm) need_args 0 $# "enable-kvm"; enable_kvm ;;
collect) need_args 1 $# "collect OUTDIR"; collect "$1" ;;
device-check) need_args 1 $# "device-check REPORT"; device_check "$1" ;;
stage) need_args 2 $# "stage VERSION DIR"; stage "$1" "$2" ;;
*) echo "ci-android: unknown step $cmd; the steps are install-sdk, enable-kvm, collect, device-check and stage" >&2; exit 2 ;;
esac

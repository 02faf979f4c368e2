#!/usr/bin/env bash
# Tests of the scripts the hosted pipeline (.github/workflows) runs, on a machine without the Android
# SDK, an emulator or Maven Central's credentials: fake sdkmanager, adb, gradle, make, gpg and curl
# record what they were asked to do, and real ELF libraries from the host's gcc go into the AAR and
# APKs that the 16 KB check reads. release-binaries.sh runs for real: Go cross-compiles every
# platform on the machine running the test, and the linux-amd64 binary it makes is run.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
cases=0
ok() { cases=$((cases + 1)); }
bad() {
	cases=$((cases + 1))
	failures=$((failures + 1))
	echo "FAIL $1"
	[ -n "${2:-}" ] && sed 's/^/  | /' <<<"$2"
}

# check NAME WANT_STATUS GOT_STATUS OUTPUT [SUBSTRING...]: the status matches and the output holds
# every substring.
check() {
	local name=$1 want=$2 got=$3 out=$4 s
	shift 4
	if [ "$got" != "$want" ]; then
		bad "$name: exit $got, want $want" "$out"
		return
	fi
	for s in "$@"; do
		if ! grep -qF -- "$s" <<<"$out"; then
			bad "$name: the output has no \"$s\"" "$out"
			return
		fi
	done
	ok
}

go build -o "$tmp/mobilemcp" ./cmd/mobilemcp || { echo "pipeline_test: cannot build the CLI"; exit 1; }
export MOBILEMCP=$tmp/mobilemcp

# --- install-sdk: the pinned packages, and ANDROID_NDK_HOME for the later steps.
sdk=$tmp/sdk
mkdir -p "$sdk"
cat >"$tmp/sdkmanager" <<'FAKE'
#!/usr/bin/env bash
echo "sdkmanager $*" >>"$FAKE_LOG"
if [ "$1" = --install ]; then
	for p in "${@:2}"; do
		case "$p" in ndk\;*) mkdir -p "$ANDROID_HOME/ndk/${p#ndk;}" && touch "$ANDROID_HOME/ndk/${p#ndk;}/source.properties" ;; esac
	done
fi
FAKE
chmod +x "$tmp/sdkmanager"
log=$tmp/sdkmanager.log
out=$(FAKE_LOG=$log ANDROID_HOME=$sdk SDKMANAGER=$tmp/sdkmanager GITHUB_ENV=$tmp/github_env ci/pipeline.sh install-sdk 27.2.12479018 2>&1)
check "install-sdk installs the pinned NDK, platform and build-tools" 0 $? "$(cat "$log" "$tmp/github_env" 2>&1)" \
	"sdkmanager --licenses" 'sdkmanager --install ndk;27.2.12479018 platforms;android-34 build-tools;34.0.0' \
	"ANDROID_NDK_HOME=$sdk/ndk/27.2.12479018"
: >"$log"
out=$(FAKE_LOG=$log ANDROID_HOME=$sdk SDKMANAGER=$tmp/sdkmanager ci/pipeline.sh install-build-tools 2>&1)
check "install-build-tools installs the pinned build-tools alone" 0 $? "$(cat "$log")" \
	"sdkmanager --licenses"$'\n'"sdkmanager --install build-tools;34.0.0"
out=$(env -u ANDROID_HOME ci/pipeline.sh install-sdk 27.2.12479018 2>&1)
check "install-sdk without ANDROID_HOME" 1 $? "$out" "pipeline: ANDROID_HOME is not set"
cat >"$tmp/brokensdkmanager" <<'FAKE'
#!/usr/bin/env bash
exit 0
FAKE
chmod +x "$tmp/brokensdkmanager"
out=$(ANDROID_HOME=$tmp/empty SDKMANAGER=$tmp/brokensdkmanager ci/pipeline.sh install-sdk 27.2.12479018 2>&1)
check "install-sdk that installs nothing" 1 $? "$out" "pipeline: sdkmanager did not install ndk;27.2.12479018"

# --- enable-kvm: a udev rule that opens /dev/kvm to the runner's user, as root.
cat >"$tmp/fakesudo" <<'FAKE'
#!/usr/bin/env bash
echo "sudo $*" >>"$FAKE_LOG"
[ "$1" = tee ] && cat >>"$FAKE_LOG"
exit 0
FAKE
chmod +x "$tmp/fakesudo"
log=$tmp/kvm.log
out=$(FAKE_LOG=$log SUDO=$tmp/fakesudo ci/pipeline.sh enable-kvm 2>&1)
check "enable-kvm writes the udev rule for /dev/kvm and reloads udev" 0 $? "$(cat "$log")" \
	"sudo tee /etc/udev/rules.d/99-kvm4all.rules"$'\n''KERNEL=="kvm", GROUP="kvm", MODE="0666", OPTIONS+="static_node=kvm"' \
	"sudo udevadm control --reload-rules"$'\n'"sudo udevadm trigger --name-match=kvm"

# --- collect: every native library of the AAR and both APKs at 16 KB, or the step fails.
ABIS="arm64-v8a armeabi-v7a x86 x86_64"
echo 'int f(void) { return 1; }' >"$tmp/f.c"
# archive FILE DIR PAGE: a zip with DIR/<abi>/libmobilemcp.so for every ABI, linked for PAGE-byte pages.
archive() {
	local file=$1 dir=$2 page=$3 abi stage
	stage=$(mktemp -d)
	for abi in $ABIS; do
		mkdir -p "$stage/$dir/$abi"
		gcc -shared -fPIC -Wl,-z,max-page-size="$page" -Wl,-z,common-page-size="$page" -o "$stage/$dir/$abi/libmobilemcp.so" "$tmp/f.c"
	done
	mkdir -p "$(dirname "$file")"
	(cd "$stage" && zip -q -r "$file" "$dir")
	rm -rf "$stage"
}
repo=$tmp/repo
mkdir -p "$repo"
cp -r scripts ci go.mod "$repo/"
# The modules' identities (ci/pipeline.sh artifacts reads them) and the consumer app's build file.
for f in android/*/gradle.properties android/consumer-smoke/build.gradle.kts; do
	mkdir -p "$repo/$(dirname "$f")"
	cp "$f" "$repo/$f"
done
aar=$repo/build/mobilemcp-sdk.aar
app=$repo/android/app/build/outputs/apk/debug/app-debug.apk
notes=$repo/android/notes/build/outputs/apk/debug/notes-debug.apk
archive "$aar" jni 16384
archive "$app" lib 16384
archive "$notes" lib 16384
out=$(cd "$repo" && ci/pipeline.sh collect out 2>&1)
check "collect passes 16 KB libraries" 0 $? "$out$(ls "$repo/out")" "pipeline: collected mobilemcp-sdk.aar, app-debug.apk and notes-debug.apk in out" \
	"mobilemcp-sdk.aar" "app-debug.apk" "notes-debug.apk"
archive "$notes" lib 4096
out=$(cd "$repo" && ci/pipeline.sh collect out2 2>&1)
check "collect fails an APK with a 4 KB library" 1 $? "$out" "has a LOAD segment aligned to 0x1000" \
	"pipeline: android/notes/build/outputs/apk/debug/notes-debug.apk: a native library would not load with 16 KB pages (above)"
if [ -e "$repo/out2/notes-debug.apk" ]; then bad "collect copied an APK that failed the check"; else ok; fi
rm "$app"
out=$(cd "$repo" && ci/pipeline.sh collect out3 2>&1)
check "collect without an APK" 1 $? "$out" "pipeline: android/app/build/outputs/apk/debug/app-debug.apk is missing; make sdk apk notes-apk builds it"

# --- device-check: the SMS app's adb check, then the notes steps, PASS or FAIL each, all of them run.
cat >"$tmp/fakecli" <<'FAKE'
#!/usr/bin/env bash
# A mobilemcp stand-in for device-check: answers as a device with both tools would.
echo "mobilemcp $*" >>"$FAKE_LOG"
case "$*" in
"adb check --apk "*) echo "PASS  device"; [ -n "${FAKE_CHECK_FAILS:-}" ] && { echo "FAIL  call"; exit 1; }; exit 0 ;;
"adb discover") echo "io.github.mobilemcp.app/.ToolService"; echo "io.github.mobilemcp.notes/.NotesToolService" ;;
*"list_notes")
	if [ -e "$FAKE_NOTE" ]; then
		echo '{"mobile-mcp-response":{"version":"1.0","response":{"id":"x","capability":{"id":"list_notes","output":[{"name":"count","type":"integer","value":1}]},"status":"success","message":"1 note"}}}'
	else
		echo '{"mobile-mcp-response":{"version":"1.0","response":{"id":"x","capability":{"id":"list_notes","output":[{"name":"count","type":"integer","value":0}]},"status":"success","message":"No notes"}}}'
	fi ;;
*) echo "unexpected: $*" >&2; exit 3 ;;
esac
FAKE
cat >"$tmp/fakeadb" <<'FAKE'
#!/usr/bin/env bash
# An adb stand-in: installs anything, and runs the notes device test, which creates the note.
echo "adb $*" >>"$FAKE_LOG"
case "$*" in
"shell am instrument "*)
	[ -n "${FAKE_CREATE_FAILS:-}" ] && { echo "FAILURES!!!"; echo "Tests run: 1,  Failures: 1"; exit 0; }
	touch "$FAKE_NOTE"; echo "OK (1 test)" ;;
esac
FAKE
chmod +x "$tmp/fakecli" "$tmp/fakeadb"
log=$tmp/device.log
out=$(FAKE_LOG=$log FAKE_NOTE=$tmp/note1 MOBILEMCP=$tmp/fakecli ADB=$tmp/fakeadb ci/pipeline.sh device-check "$tmp/report.txt" 2>&1)
check "device-check passes every step" 0 $? "$out$(cat "$tmp/report.txt")" "PASS  device" "PASS  notes-install" "PASS  notes-discover" \
	"PASS  notes-list" "PASS  notes-test-install" "PASS  notes-create" "PASS  notes-created"
check "device-check lists by Intent, creates by binding in the device test, and counts" 0 0 "$(cat "$log")" \
	"adb install -r android/notes/build/outputs/apk/debug/notes-debug.apk" \
	"mobilemcp adb call --intent --tool io.github.mobilemcp.notes/.NotesToolService list_notes" \
	"adb install -r android/notes/build/outputs/apk/androidTest/debug/notes-debug-androidTest.apk" \
	"adb shell am instrument -w -e class io.github.mobilemcp.notes.NotesOnDeviceTest io.github.mobilemcp.notes.test/androidx.test.runner.AndroidJUnitRunner" \
	"mobilemcp adb call --tool io.github.mobilemcp.notes/.NotesToolService list_notes"
out=$(FAKE_LOG=$log FAKE_NOTE=$tmp/note2 FAKE_CHECK_FAILS=1 FAKE_CREATE_FAILS=1 MOBILEMCP=$tmp/fakecli ADB=$tmp/fakeadb ci/pipeline.sh device-check "$tmp/report2.txt" 2>&1)
check "device-check runs every step and fails when one fails" 1 $? "$out" "FAIL  call" "PASS  notes-list" \
	"FAIL  notes-create" "FAIL  notes-created" "pipeline: a device step failed; $tmp/report2.txt lists them"

# --- version-code: from the tag, a pre-release below its release, every later version above.
codes=""
for v in 0.1.0 0.1.1-rc.1 0.1.1 0.2.0 1.0.0-beta 1.0.0 1999.99.99; do
	codes+="$v=$(ci/pipeline.sh version-code "$v" 2>&1) "
done
check "version-code orders every version" 0 0 "$codes" "0.1.0=10099 " "0.1.1-rc.1=10100 " "0.1.1=10199 " "0.2.0=20099 " \
	"1.0.0-beta=1000000 " "1.0.0=1000099 " "1999.99.99=1999999999 "
out=$(ci/pipeline.sh version-code 1.100.0 2>&1)
check "version-code refuses a minor of 100" 1 $? "$out" "pipeline: VERSION 1.100.0 does not fit a versionCode"
out=$(ci/pipeline.sh version-code v1.2 2>&1)
check "version-code refuses what is not a version" 1 $? "$out" "pipeline: VERSION v1.2 is not a version such as 1.2.0"

# --- release-version: the tag's version, or a rehearsal's pre-release, which no tag gives and
# whose versionCode is positive.
out=$(ci/pipeline.sh release-version v1.2.0-rc.1 17 2>&1)
check "release-version takes the tag's version" 0 $? "$out" "1.2.0-rc.1"
out=$(ci/pipeline.sh release-version "" 17 2>&1)
check "release-version gives a rehearsal a pre-release of its own" 0 $? "$out" "0.0.1-rc.17"
if [ "$(ci/pipeline.sh version-code "$out")" -gt 0 ]; then ok; else bad "the rehearsal's version $out has versionCode $(ci/pipeline.sh version-code "$out")"; fi
out=$(ci/pipeline.sh release-version refs/heads/main 17 2>&1)
check "release-version refuses what is not a release tag" 1 $? "$out" "pipeline: TAG refs/heads/main is not a release tag such as v1.2.0"
out=$(ci/pipeline.sh release-version v1.100.0 17 2>&1)
check "release-version refuses a tag that fits no versionCode" 1 $? "$out" "pipeline: VERSION 1.100.0 does not fit a versionCode"

# --- artifacts: every module that names its artifact, which the root build file publishes.
out=$(ci/pipeline.sh artifacts 2>&1)
check "artifacts lists the modules that publish, and their artifacts" 0 $? "$out" \
	"client client"$'\n'"client-ktx client-ktx"$'\n'"client-mcp client-mcp"$'\n'"protocol protocol"$'\n'"sdk sdk"$'\n'"sdk-ksp sdk-ksp"$'\n'"sdk-ktx sdk-ktx"$'\n'"sdk-testing sdk-testing"$'\n'"sdk-testing-engine sdk-testing-engine"
mkdir -p "$tmp/bare/ci" "$tmp/bare/android/x"
cp ci/pipeline.sh "$tmp/bare/ci/"
out=$("$tmp/bare/ci/pipeline.sh" artifacts 2>&1)
check "artifacts with no module that publishes" 1 $? "$out" "pipeline: no module of android/ names a mobilemcp.artifactId"

# --- stage: make sdk, then Gradle (the wrapper) publishes the nine artifacts into the staging
# repository, at the tag's version and versionCode, with the host engines the release gathered.
cat >"$tmp/fakegradle" <<'FAKE'
#!/usr/bin/env bash
echo "gradle $* (in $(basename "$PWD"))" >>"$FAKE_LOG"
for a in "$@"; do
	case "$a" in :*:assembleRelease) app=${a#:}; app=${app%%:*}; mkdir -p "$app/build/outputs/apk/release"
		echo "$app apk" >"$app/build/outputs/apk/release/$app-release-unsigned.apk" ;; esac
done
FAKE
cat >"$tmp/fakemake" <<'FAKE'
#!/usr/bin/env bash
echo "make $*" >>"$FAKE_LOG"
FAKE
chmod +x "$tmp/fakegradle" "$tmp/fakemake"
log=$tmp/stage.log
mkdir -p "$repo/android" "$repo/build/host-engines/io/github/mobilemcp/sdk/testing/engine"
out=$(cd "$repo" && FAKE_LOG=$log GRADLE=$tmp/fakegradle MAKE=$tmp/fakemake ci/pipeline.sh stage 1.2.0 "$tmp/staging" 2>&1)
check "stage without the host engines" 1 $? "$out" "pipeline: build/host-engines holds no host engines"
printf 'linux-x86_64\n' >"$repo/build/host-engines/io/github/mobilemcp/sdk/testing/engine/platforms"
out=$(cd "$repo" && FAKE_LOG=$log GRADLE=$tmp/fakegradle MAKE=$tmp/fakemake ci/pipeline.sh stage 1.2.0 "$tmp/staging" 2>&1)
check "stage builds the SDK and publishes every artifact at the tag's version" 0 $? "$(cat "$log")$out" "make sdk" \
	"gradle --no-daemon -Pmobilemcp.version=1.2.0 -Pmobilemcp.versionCode=1020099 -Pmobilemcp.stagingRepo=$tmp/staging :client:publishAllPublicationsToStagingRepository :client-ktx:publishAllPublicationsToStagingRepository :client-mcp:publishAllPublicationsToStagingRepository :protocol:publishAllPublicationsToStagingRepository :sdk:publishAllPublicationsToStagingRepository :sdk-ksp:publishAllPublicationsToStagingRepository :sdk-ktx:publishAllPublicationsToStagingRepository :sdk-testing:publishAllPublicationsToStagingRepository :sdk-testing-engine:publishAllPublicationsToStagingRepository (in android)" \
	"pipeline: staged io.github.mobilemcp 1.2.0 (9 artifacts)"

# --- apks: each app's release APK with its own engine, at the tag's version, unsigned.
cat >"$tmp/fakebuild" <<'FAKE'
#!/usr/bin/env bash
echo "android-build $* (version ${MOBILEMCP_VERSION:-unset})" >>"$FAKE_LOG"
FAKE
chmod +x "$tmp/fakebuild"
log=$tmp/apks.log
out=$(cd "$repo" && FAKE_LOG=$log GRADLE=$tmp/fakegradle ANDROID_BUILD=$tmp/fakebuild ci/pipeline.sh apks 1.2.0-rc.1 "$tmp/apks" 2>&1)
check "apks builds the SMS app with its engine and the notes sample with the tool engine" 0 $? "$(cat "$log")$(ls "$tmp/apks")" \
	"android-build aar app (version 1.2.0-rc.1)" "gradle --no-daemon -Pmobilemcp.version=1.2.0-rc.1 -Pmobilemcp.versionCode=1020000 :app:assembleRelease" \
	"android-build aar (version 1.2.0-rc.1)"$'\n'"gradle --no-daemon -Pmobilemcp.version=1.2.0-rc.1 -Pmobilemcp.versionCode=1020000 :notes:assembleRelease" \
	"mobilemcp-app-1.2.0-rc.1-unsigned.apk" "mobilemcp-notes-1.2.0-rc.1-unsigned.apk"

# --- sign-apks: aligned for 16 KB pages, then signed with the release key, whose passwords never
# reach a command line; verified; their SHA-256 listed.
cat >"$tmp/fakezipalign" <<'FAKE'
#!/usr/bin/env bash
echo "zipalign $*" >>"$FAKE_LOG"
cp "${@: -2:1}" "${@: -1}"
FAKE
cat >"$tmp/fakeapksigner" <<'FAKE'
#!/usr/bin/env bash
echo "apksigner $* (store password from the environment: $ANDROID_KEYSTORE_PASSWORD)" >>"$FAKE_LOG"
if [ "$1" = sign ]; then
	while [ $# -gt 0 ]; do case "$1" in --ks) ks=$2 ;; --out) out=$2 ;; esac; shift; done
	[ "$(cat "$ks")" = keystore-bytes ] || { echo "not the keystore"; exit 1; }
	{ cat "${out}.aligned"; echo signed; } >"$out"
fi
FAKE
chmod +x "$tmp/fakezipalign" "$tmp/fakeapksigner"
log=$tmp/sign.log
keys=(ANDROID_KEYSTORE_BASE64="$(printf keystore-bytes | base64)" ANDROID_KEYSTORE_PASSWORD=store-secret ANDROID_KEY_ALIAS=release ANDROID_KEY_PASSWORD=key-secret)
out=$(env "${keys[@]}" FAKE_LOG="$log" APKSIGNER="$tmp/fakeapksigner" ZIPALIGN="$tmp/fakezipalign" ci/pipeline.sh sign-apks "$tmp/apks" 2>&1)
check "sign-apks aligns, signs and verifies each APK and lists its SHA-256" 0 $? "$out$(cat "$log" "$tmp/apks/APKS.SHA256SUMS")" \
	"pipeline: signed 2 APKs" "zipalign -f -P 16 4 $tmp/apks/mobilemcp-app-1.2.0-rc.1-unsigned.apk" \
	"apksigner sign --ks " "--ks-key-alias release --ks-pass env:ANDROID_KEYSTORE_PASSWORD --key-pass env:ANDROID_KEY_PASSWORD --out $tmp/apks/mobilemcp-app-1.2.0-rc.1.apk" \
	"apksigner verify $tmp/apks/mobilemcp-notes-1.2.0-rc.1.apk" \
	"$(cd "$tmp/apks" && sha256sum mobilemcp-app-1.2.0-rc.1.apk)"
if grep -q "^apksigner .*\(store-secret\|key-secret\).*(store" "$log"; then bad "a password is on apksigner's command line"; else ok; fi
if compgen -G "$tmp/apks/*unsigned*" >/dev/null; then bad "an unsigned APK is left to attach"; else ok; fi
out=$(env "${keys[@]}" ANDROID_KEY_PASSWORD= ci/pipeline.sh sign-apks "$tmp/apks" 2>&1)
check "sign-apks without the key's password" 1 $? "$out" "pipeline: ANDROID_KEY_PASSWORD is not set"

# --- sign-apks-throwaway: the same signing with a key keytool makes for the run. The stand-in
# apksigner opens the keystore with real keytool, with the password from the environment.
cat >"$tmp/keyapksigner" <<'FAKE'
#!/usr/bin/env bash
echo "apksigner $*" >>"$FAKE_LOG"
if [ "$1" = sign ]; then
	while [ $# -gt 0 ]; do case "$1" in --ks) ks=$2 ;; --ks-key-alias) alias=$2 ;; --out) out=$2 ;; esac; shift; done
	keytool -list -keystore "$ks" -storepass:env ANDROID_KEYSTORE_PASSWORD -alias "$alias" >>"$FAKE_LOG" 2>&1 || { echo "keytool cannot open it"; exit 1; }
	cp "$out.aligned" "$out"
fi
FAKE
chmod +x "$tmp/keyapksigner"
log=$tmp/throwaway.log
mkdir -p "$tmp/apks2"
echo app >"$tmp/apks2/mobilemcp-app-0.0.1-rc.3-unsigned.apk"
echo notes >"$tmp/apks2/mobilemcp-notes-0.0.1-rc.3-unsigned.apk"
out=$(env -u ANDROID_KEYSTORE_BASE64 FAKE_LOG="$log" APKSIGNER="$tmp/keyapksigner" ZIPALIGN="$tmp/fakezipalign" ci/pipeline.sh sign-apks-throwaway "$tmp/apks2" 2>&1)
check "sign-apks-throwaway signs with a key made for the run" 0 $? "$out$(cat "$log")" "pipeline: signed 2 APKs in $tmp/apks2" \
	"--ks-key-alias throwaway --ks-pass env:ANDROID_KEYSTORE_PASSWORD" "throwaway, " "PrivateKeyEntry" "mobilemcp-notes-0.0.1-rc.3.apk"
out=$(KEYTOOL=false ci/pipeline.sh sign-apks-throwaway "$tmp/apks2" 2>&1)
check "sign-apks-throwaway without a keytool that works" 1 $? "$out" "pipeline: keytool could not make the throwaway key"

# --- gate: the AARs Gradle staged (by their published names) and the APKs, gathered for the
# release gate, which checks them with the staging repository, the CLI archives, the five
# platforms' engines and go.mod's toolchain.
cat >"$tmp/fakereleasecheck" <<'FAKE'
#!/usr/bin/env bash
echo "releasecheck $* (ZIPALIGN=$ZIPALIGN)" >>"$FAKE_LOG"
while [ $# -gt 0 ]; do [ "$1" = -android ] && ls "$2" >>"$FAKE_LOG"; shift; done
FAKE
chmod +x "$tmp/fakereleasecheck"
log=$tmp/gate.log
gstage=$tmp/gate-staging
for artifact in sdk client sdk-testing-engine; do
	mkdir -p "$gstage/io/github/mobilemcp/$artifact/1.2.0"
	touch "$gstage/io/github/mobilemcp/$artifact/1.2.0/$artifact-1.2.0.pom"
done
touch "$gstage/io/github/mobilemcp/sdk/1.2.0/sdk-1.2.0.aar" "$gstage/io/github/mobilemcp/client/1.2.0/client-1.2.0.aar"
touch "$gstage/io/github/mobilemcp/sdk/1.2.0/sdk-1.2.0-sources.jar"
mkdir -p "$tmp/gate-apks" "$tmp/gate-cli"
touch "$tmp/gate-apks/mobilemcp-app-1.2.0.apk" "$tmp/gate-apks/APKS.SHA256SUMS"
out=$(cd "$repo" && FAKE_LOG=$log RELEASECHECK=$tmp/fakereleasecheck ZIPALIGN=/sdk/zipalign ci/pipeline.sh gate 1.2.0 "$gstage" "$tmp/gate-apks" "$tmp/gate-cli" 2>&1)
check "gate runs the release gate on the staged AARs, the APKs, the CLI, five engines and go.mod's toolchain" 0 $? "$(cat "$log")$out" \
	"releasecheck -version 1.2.0 -staging $gstage -android build/gate-android -release $tmp/gate-cli -engines linux-x86_64,linux-aarch64,windows-x86_64,macos-x86_64,macos-aarch64 -go $(scripts/go-toolchain.sh) -build-id " \
	"(ZIPALIGN=/sdk/zipalign)" "client-1.2.0.aar"$'\n'"mobilemcp-app-1.2.0.apk"$'\n'"sdk-1.2.0.aar"
mkdir -p "$tmp/gate-packages"
out=$(cd "$repo" && FAKE_LOG=$log RELEASECHECK=$tmp/fakereleasecheck ZIPALIGN=/sdk/zipalign ci/pipeline.sh gate 1.2.0 "$gstage" "$tmp/gate-apks" "$tmp/gate-cli" "$tmp/gate-packages" 2>&1)
check "gate checks the desktop packages too when given them" 0 $? "$(tail -n 4 "$log")" \
	"-release $tmp/gate-cli -packages $tmp/gate-packages -engines "
out=$(cd "$repo" && RELEASECHECK=$tmp/fakereleasecheck ZIPALIGN=/sdk/zipalign ci/pipeline.sh gate 1.2.0 "$gstage" "$tmp/gate-apks" "$tmp/gate-cli" "$tmp/nothing" 2>&1)
check "gate without the desktop packages it names" 1 $? "$out" "pipeline: no desktop packages in $tmp/nothing"
out=$(cd "$repo" && RELEASECHECK=$tmp/fakereleasecheck ZIPALIGN=/sdk/zipalign ci/pipeline.sh gate 1.3.0 "$gstage" "$tmp/gate-apks" "$tmp/gate-cli" 2>&1)
check "gate with no AAR of the version" 1 $? "$out" "pipeline: $gstage holds no AAR of version 1.3.0"
cat >"$tmp/failingcheck" <<'FAKE'
#!/usr/bin/env bash
echo "FAIL  sdk-1.2.0.aar: engine                 no jni/x86/libmobilemcp.so"
exit 1
FAKE
chmod +x "$tmp/failingcheck"
out=$(cd "$repo" && RELEASECHECK=$tmp/failingcheck ZIPALIGN=/sdk/zipalign ci/pipeline.sh gate 1.2.0 "$gstage" "$tmp/gate-apks" "$tmp/gate-cli" 2>&1)
check "gate fails when the release gate does" 1 $? "$out" "FAIL  sdk-1.2.0.aar: engine"

# --- packages-smoke: on the macOS and Windows runners, npm installs the package and this system's
# binary package offline, and pip the wheel into a virtual environment; each mobilemcp names the
# version. make release-check runs it for real on this machine's packages.
cat >"$tmp/fakenode" <<'FAKE'
#!/usr/bin/env bash
echo "${FAKE_SYSTEM:-darwin-arm64}"
FAKE
cat >"$tmp/fakenpm" <<'FAKE'
#!/usr/bin/env bash
echo "npm $* (cache $npm_config_cache)" >>"$FAKE_LOG"
FAKE
cat >"$tmp/fakenpx" <<'FAKE'
#!/usr/bin/env bash
echo "npx $*" >>"$FAKE_LOG"
echo "${FAKE_NPX_PRINTS:-mobilemcp 1.2.0 (build abc123)}"
FAKE
cat >"$tmp/fakepython" <<'FAKE'
#!/usr/bin/env bash
# python -m venv DIR: a venv whose python logs pip and whose mobilemcp names a version.
echo "python $*" >>"$FAKE_LOG"
[ "$1 $2" = "-m venv" ] || exit 2
mkdir -p "$3/bin"
printf '#!/usr/bin/env bash\necho "venv python $*" >>"%s"\n' "$FAKE_LOG" >"$3/bin/python"
printf '#!/usr/bin/env bash\necho "%s"\n' "${FAKE_WHEEL_PRINTS:-mobilemcp 1.2.0 (build abc123)}" >"$3/bin/mobilemcp"
chmod +x "$3/bin/python" "$3/bin/mobilemcp"
FAKE
chmod +x "$tmp/fakenode" "$tmp/fakenpm" "$tmp/fakenpx" "$tmp/fakepython"
smoke_pkgs=$tmp/smoke-packages
mkdir -p "$smoke_pkgs/npm" "$smoke_pkgs/pypi" "$tmp/runner-temp"
touch "$smoke_pkgs/npm/mobilemcp-1.2.0.tgz" "$smoke_pkgs/npm/mobilemcp-cli-darwin-arm64-1.2.0.tgz"
smoke=(NODE="$tmp/fakenode" NPM="$tmp/fakenpm" NPX="$tmp/fakenpx" PYTHON="$tmp/fakepython" RUNNER_TEMP="$tmp/runner-temp")
log=$tmp/packages-smoke.log
out=$(env "${smoke[@]}" FAKE_LOG="$log" ci/pipeline.sh packages-smoke 1.2.0 "$smoke_pkgs" 2>&1)
check "packages-smoke installs this system's npm packages and the wheel offline, and runs each" 0 $? "$out$(cat "$log")" \
	"npm install --offline --no-audit --no-fund --prefix . $smoke_pkgs/npm/mobilemcp-1.2.0.tgz $smoke_pkgs/npm/mobilemcp-cli-darwin-arm64-1.2.0.tgz (cache $tmp/runner-temp/npm-cache)" \
	"npx --offline mobilemcp version" "python -m venv $tmp/runner-temp/venv" \
	"venv python -m pip install --disable-pip-version-check --no-index --find-links $smoke_pkgs/pypi mobilemcp" \
	"pipeline: npm: mobilemcp 1.2.0 (build abc123)" "pipeline: pip: mobilemcp 1.2.0 (build abc123)" \
	"pipeline: the npm package and the wheel of 1.2.0 install offline and run on darwin-arm64"
out=$(env "${smoke[@]}" FAKE_LOG="$log" FAKE_SYSTEM=win32-x64 ci/pipeline.sh packages-smoke 1.2.0 "$smoke_pkgs" 2>&1)
check "packages-smoke without this system's npm package" 1 $? "$out" \
	"pipeline: no mobilemcp-cli-win32-x64-1.2.0.tgz in $smoke_pkgs/npm: ci/release-packages.sh builds one for each system (win32-x64 here)"
out=$(env "${smoke[@]}" FAKE_LOG="$log" FAKE_NPX_PRINTS="mobilemcp 1.1.0 (build abc123)" ci/pipeline.sh packages-smoke 1.2.0 "$smoke_pkgs" 2>&1)
check "packages-smoke fails an npm package of another version" 1 $? "$out" \
	'pipeline: npx mobilemcp version printed "mobilemcp 1.1.0 (build abc123)", not mobilemcp 1.2.0 (build ...)'
out=$(env "${smoke[@]}" FAKE_LOG="$log" FAKE_WHEEL_PRINTS="mobilemcp dev" ci/pipeline.sh packages-smoke 1.2.0 "$smoke_pkgs" 2>&1)
check "packages-smoke fails a wheel of another version" 1 $? "$out" \
	'pipeline: the wheel'"'"'s mobilemcp version printed "mobilemcp dev", not mobilemcp 1.2.0 (build ...)'
out=$(env "${smoke[@]}" ci/pipeline.sh packages-smoke 1.2.0 "$tmp/nothing" 2>&1)
check "packages-smoke without the packages" 1 $? "$out" "pipeline: no desktop packages in $tmp/nothing"

# --- consumer-smoke: the SDK platform the app compiles against installed, then its tests through
# the wrapper, against the staged version, with the repository as a path Gradle reads on any OS.
log=$tmp/smoke.log
mkdir -p "$repo/build/staging"
out=$(cd "$repo" && FAKE_LOG=$log ANDROID_HOME=$sdk SDKMANAGER=$tmp/sdkmanager GRADLE=$tmp/fakegradle ci/pipeline.sh consumer-smoke 1.2.0 build/staging 2>&1)
compile=$(sed -n 's/^ *compileSdk *= *\([0-9]*\).*/\1/p' android/consumer-smoke/build.gradle.kts)
check "consumer-smoke installs the app's compile SDK, then runs its tests against the staged version" 0 $? "$(cat "$log")$out" \
	"sdkmanager --install platforms;android-$compile build-tools;34.0.0" \
	"gradle --no-daemon -p consumer-smoke -Pmobilemcp.stagingRepo=../../build/staging -Pmobilemcp.version=1.2.0 test (in android)" \
	"pipeline: the consumer app's tests passed against io.github.mobilemcp 1.2.0"
out=$(cd "$repo" && ANDROID_HOME=$sdk SDKMANAGER=$tmp/sdkmanager GRADLE=$tmp/fakegradle ci/pipeline.sh consumer-smoke 1.2.0 build/nothing 2>&1)
check "consumer-smoke without the staging repository" 1 $? "$out" "pipeline: no staging repository at build/nothing"

# --- release-notes: the Maven coordinates of the version, and what is attached.
out=$(ci/pipeline.sh release-notes 1.2.0 "$tmp/notes.md" 2>&1)
# shellcheck disable=SC2016 # the notes' Markdown backquotes, as they are
check "release-notes names the Maven coordinates and the attachments" 0 $? "$(cat "$tmp/notes.md")" \
	'implementation("io.github.mobilemcp:sdk:1.2.0")' 'testImplementation("io.github.mobilemcp:sdk-testing:1.2.0")' \
	'`io.github.mobilemcp:sdk-testing-engine:1.2.0`' '`mobilemcp-app-1.2.0.apk`' 'APKS.SHA256SUMS' 'SHA256SUMS'

# --- github-release: the tag must exist (--verify-tag); a tag with "-" is a pre-release.
cat >"$tmp/fakegh" <<'FAKE'
#!/usr/bin/env bash
echo "gh $*" >>"$FAKE_LOG"
FAKE
chmod +x "$tmp/fakegh"
log=$tmp/gh.log
out=$(FAKE_LOG=$log GH=$tmp/fakegh ci/pipeline.sh github-release v1.2.0 "$tmp/notes.md" a.tar.gz b.apk 2>&1)
check "github-release creates the release from the existing tag, with the notes and files" 0 $? "$(cat "$log")" \
	"gh release create v1.2.0 --verify-tag --title mobilemcp 1.2.0 --notes-file $tmp/notes.md a.tar.gz b.apk"
if grep -q -- --prerelease "$log"; then bad "v1.2.0 was released as a pre-release"; else ok; fi
out=$(FAKE_LOG=$log GH=$tmp/fakegh ci/pipeline.sh github-release v1.3.0-rc.1 "$tmp/notes.md" a.tar.gz 2>&1)
check "github-release marks a tag with - as a pre-release" 0 $? "$(tail -n 1 "$log")" \
	"gh release create v1.3.0-rc.1 --verify-tag --title mobilemcp 1.3.0-rc.1 --notes-file $tmp/notes.md --prerelease a.tar.gz"
out=$(GH=$tmp/fakegh ci/pipeline.sh github-release main "$tmp/notes.md" a.tar.gz 2>&1)
check "github-release refuses what is not a release tag" 1 $? "$out" "pipeline: TAG main is not a release tag such as v1.2.0"

out=$(ci/pipeline.sh 2>&1)
check "pipeline.sh without a step" 2 $? "$out" "usage: ci/pipeline.sh"
out=$(ci/pipeline.sh deploy 2>&1)
check "pipeline.sh with an unknown step" 2 $? "$out" "pipeline: unknown step deploy"
out=$(ci/pipeline.sh collect 2>&1)
check "collect without OUTDIR" 2 $? "$out" "usage: ci/pipeline.sh collect OUTDIR"

# --- release-binaries: real cross-compiled binaries, with checksums sha256sum verifies.
out=$(ci/release-binaries.sh 1.2.0 "$tmp/release" 2>&1)
check "release-binaries builds every platform" 0 $? "$out$(ls "$tmp/release")" \
	mobilemcp-1.2.0-linux-amd64.tar.gz mobilemcp-1.2.0-linux-arm64.tar.gz mobilemcp-1.2.0-macos-amd64.tar.gz \
	mobilemcp-1.2.0-macos-arm64.tar.gz mobilemcp-1.2.0-windows-amd64.zip mobilemcp-1.2.0-windows-arm64.zip SHA256SUMS
out=$(cd "$tmp/release" && sha256sum -c SHA256SUMS 2>&1)
check "release-binaries' SHA256SUMS verifies" 0 $? "$out" "mobilemcp-1.2.0-windows-arm64.zip: OK"
mkdir -p "$tmp/unpacked"
tar -C "$tmp/unpacked" -xzf "$tmp/release/mobilemcp-1.2.0-linux-amd64.tar.gz"
out=$("$tmp/unpacked/mobilemcp" version 2>&1)
check "the released binary names its version and commit" 0 $? "$out" "mobilemcp 1.2.0 (build $(git rev-parse HEAD)"
out=$(echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}' |
	MOBILEMCP_DATA_DIR="$tmp/data" "$tmp/unpacked/mobilemcp" serve --stdio 2>&1)
check "the released binary's MCP server names the same version" 0 $? "$out" '"serverInfo":{"name":"mobilemcp","title":"mobilemcp SMS","version":"1.2.0"}'
out=$(unzip -l "$tmp/release/mobilemcp-1.2.0-windows-amd64.zip" 2>&1)
check "the windows archive holds mobilemcp.exe" 0 $? "$out" "mobilemcp.exe"
out=$(ci/release-binaries.sh v1.2 "$tmp/release2" 2>&1)
check "release-binaries refuses a version that is not one" 2 $? "$out" "release-binaries: VERSION v1.2 is not a version such as 1.2.0"

# --- publish-central: every file signed and checksummed, one bundle, one upload with the token, then
# Central's status polled until PUBLISHED; FAILED fails the step with Central's errors; a re-run of
# a version Central has published uploads nothing. Real curl against a stand-in for the Central
# Portal's Publisher API on this machine's loopback.
staging=$tmp/staging-repo
# stage_set DIR VERSION ARTIFACT...: a staged repository of the artifacts.
stage_set() {
	local dir=$1 version=$2 artifact d kind
	shift 2
	rm -rf "$dir"
	for artifact in "$@"; do
		d=$dir/io/github/mobilemcp/$artifact/$version
		mkdir -p "$d"
		for kind in .pom -sources.jar -javadoc.jar .jar; do echo "$artifact$kind" >"$d/$artifact-$version$kind"; done
		echo metadata >"$dir/io/github/mobilemcp/$artifact/maven-metadata.xml"
	done
}
released=$(ci/pipeline.sh artifacts | cut -d' ' -f2 | tr '\n' ' ')
# shellcheck disable=SC2086 # one argument per artifact
stage_set "$staging" 1.2.0 $released
cat >"$tmp/fakegpg" <<'FAKE'
#!/usr/bin/env bash
echo "gpg $*" >>"$FAKE_LOG"
if [ "$*" = "--batch --import" ]; then cat >>"$FAKE_LOG"; exit 0; fi
read -r passphrase
[ "$passphrase" = secret-passphrase ] || { echo "bad passphrase" >&2; exit 2; }
out=; while [ $# -gt 0 ]; do [ "$1" = --output ] && out=$2; shift; done
echo "signature" >"$out"
FAKE
chmod +x "$tmp/fakegpg"
# The Portal: /upload answers a deployment id for the right token, /status walks through STATES (a
# comma-separated list; the last one stays), /published says true for the artifacts in PUBLISHED
# (comma-separated, or -), and every request is logged.
cat >"$tmp/portal.py" <<'PORTAL'
import json, sys, urllib.parse
from http.server import BaseHTTPRequestHandler, HTTPServer
states, log, portfile, token = sys.argv[1].split(","), sys.argv[2], sys.argv[3], sys.argv[4]
published = sys.argv[5].split(",")
polls = [0]
class Portal(BaseHTTPRequestHandler):
    def log_message(self, *args): pass
    def answer(self, code, body, kind="application/json"):
        data = body.encode()
        self.send_response(code); self.send_header("Content-Type", kind); self.send_header("Content-Length", str(len(data)))
        self.end_headers(); self.wfile.write(data)
    def request_line(self, body):
        with open(log, "a") as f:
            f.write("%s %s auth=%s bytes=%d\n" % (self.command, self.path, self.headers.get("Authorization"), len(body)))
        return self.headers.get("Authorization") == "Bearer " + token
    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        if not self.request_line(b""):
            return self.answer(401, '{"error":"unauthorized"}')
        if url.path == "/api/v1/publisher/published" and query.get("namespace") == ["io.github.mobilemcp"]:
            return self.answer(200, json.dumps({"published": query.get("name", [""])[0] in published}))
        self.answer(404, '{"error":"no such endpoint"}')
    def do_POST(self):
        url = urllib.parse.urlparse(self.path)
        query = urllib.parse.parse_qs(url.query)
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if not self.request_line(body):
            return self.answer(401, '{"error":"unauthorized"}')
        if url.path == "/api/v1/publisher/upload":
            if states[0] == "REFUSE":
                return self.answer(400, '{"error":"invalid bundle"}')
            if b'name="bundle"' not in body:
                return self.answer(400, '{"error":"no bundle"}')
            return self.answer(201, "deployment-0001", "text/plain")
        if url.path == "/api/v1/publisher/status" and query.get("id") == ["deployment-0001"]:
            state = states[min(polls[0], len(states) - 1)]
            polls[0] += 1
            reply = {"deploymentId": "deployment-0001", "deploymentName": "bundle.zip", "deploymentState": state, "purls": []}
            if state == "FAILED":
                reply["errors"] = {"pkg:maven/io.github.mobilemcp/sdk@1.2.0": ["Invalid signature for file: sdk-1.2.0.jar"]}
            return self.answer(200, json.dumps(reply))
        self.answer(404, '{"error":"no such endpoint"}')
server = HTTPServer(("127.0.0.1", 0), Portal)
with open(portfile, "w") as f: f.write(str(server.server_address[1]))
server.serve_forever()
PORTAL
token=$(printf 'alice:s3cret' | base64)
# portal STATES [PUBLISHED]: starts the Portal, sets CENTRAL_API and PORTAL_PID.
portal() {
	rm -f "$tmp/portal.port" "$tmp/portal.log"
	python3 "$tmp/portal.py" "$1" "$tmp/portal.log" "$tmp/portal.port" "$token" "${2:--}" &
	PORTAL_PID=$!
	for _ in $(seq 50); do [ -s "$tmp/portal.port" ] && break; sleep 0.1; done
	CENTRAL_API=http://127.0.0.1:$(cat "$tmp/portal.port")/api/v1/publisher
}
log=$tmp/publish.log
secrets=(GPG_PRIVATE_KEY="-----BEGIN PGP PRIVATE KEY BLOCK-----" GPG_PASSPHRASE=secret-passphrase CENTRAL_TOKEN_USER=alice CENTRAL_TOKEN_PASSWORD=s3cret POLL_SECONDS=0)
publish() { env "${secrets[@]}" FAKE_LOG="$log" GPG="$tmp/fakegpg" CENTRAL_API="$CENTRAL_API" "$@" ci/publish-central.sh "$staging" "$tmp/bundle.zip" 2>&1; }
portal PENDING,VALIDATING,VALIDATED,PUBLISHING,PUBLISHED
out=$(publish)
# Nine artifacts of four files, each with its signature and two checksums: 144 files.
check "publish-central uploads a signed bundle and waits until Central has published it" 0 $? "$out" "publish-central: bundled 144 files" \
	"publish-central: uploaded 1.2.0; deployment deployment-0001 (AUTOMATIC)" "publish-central: deployment deployment-0001 is VALIDATING" \
	"publish-central: deployment deployment-0001 is PUBLISHING" "publish-central: deployment deployment-0001 is published on Maven Central"
check "it asks whether each artifact is published, then uploads and polls, with the token in a header" 0 0 "$(cat "$tmp/portal.log")" \
	"GET /api/v1/publisher/published?namespace=io.github.mobilemcp&name=client-ktx&version=1.2.0 auth=Bearer $token" \
	"GET /api/v1/publisher/published?namespace=io.github.mobilemcp&name=sdk-testing-engine&version=1.2.0 auth=Bearer $token" \
	"POST /api/v1/publisher/upload?name=mobilemcp-1.2.0&publishingType=AUTOMATIC auth=Bearer $token" \
	"POST /api/v1/publisher/status?id=deployment-0001 auth=Bearer $token"
if [ "$(grep -c /status "$tmp/portal.log")" = 5 ]; then ok; else bad "publish-central polled $(grep -c /status "$tmp/portal.log") times, not 5"; fi
kill "$PORTAL_PID"
listing=$(unzip -Z1 "$tmp/bundle.zip")
check "the bundle has each file's signature and checksums, and no metadata" 0 "$(grep -c maven-metadata <<<"$listing")" "$listing" \
	io/github/mobilemcp/sdk-testing-engine/1.2.0/sdk-testing-engine-1.2.0.jar.asc io/github/mobilemcp/client/1.2.0/client-1.2.0.pom.sha1 \
	io/github/mobilemcp/client-ktx/1.2.0/client-ktx-1.2.0.pom.asc io/github/mobilemcp/sdk/1.2.0/sdk-1.2.0-javadoc.jar.md5
check "the signing key is imported from the environment" 0 0 "$(cat "$log")" "BEGIN PGP PRIVATE KEY BLOCK"

portal PENDING,VALIDATING,FAILED
out=$(publish)
check "publish-central fails on a FAILED deployment and prints Central's errors" 1 $? "$out" \
	"publish-central: Central failed deployment deployment-0001:" "Invalid signature for file: sdk-1.2.0.jar" \
	"publish-central: nothing was published; fix what Central reports above and release again under a new version"
kill "$PORTAL_PID"

portal PENDING,VALIDATED,PUBLISHING
out=$(publish PUBLISHING_TYPE=USER_MANAGED)
check "a USER_MANAGED deployment stops at VALIDATED" 0 $? "$out" "publish-central: deployment deployment-0001 is valid; publish it in the Portal"
kill "$PORTAL_PID"

# The budget: the job ends by itself, early enough for the GitHub release after it. A budget of 0
# ends the wait at the first answer, so the state at the budget's end is the Portal's, however
# slowly this machine polls.
portal VALIDATING
out=$(publish POLL_BUDGET=0)
check "publish-central stops at its budget before Central validated, naming the deployment and the re-run" 1 $? "$out" \
	"publish-central: deployment deployment-0001 is still VALIDATING after " ", and nothing is published yet." \
	"re-run this job: it finds the version on Central and completes the release without uploading again"
kill "$PORTAL_PID"
portal PUBLISHING
out=$(publish POLL_BUDGET=0)
check "a deployment still PUBLISHING when the budget ends passes: Central publishes it without us" 0 $? "$out" \
	"publish-central: deployment deployment-0001 is valid and still PUBLISHING after " "; Maven Central gets it without us" \
	"publish-central: deployment deployment-0001 is published on Maven Central"
kill "$PORTAL_PID"

# A re-run after Central published the version: nothing is signed or uploaded again.
portal PUBLISHED "$(tr ' ' , <<<"$released")"
: >"$log"
out=$(publish)
check "a re-run of a version Central has published uploads nothing and passes" 0 $? "$out" \
	"publish-central: Central has published every artifact of 1.2.0 already (a re-run); nothing is uploaded"
if grep -q "upload\|status" "$tmp/portal.log"; then bad "the re-run uploaded or polled: $(cat "$tmp/portal.log")"; else ok; fi
if grep -q detach-sign "$log"; then bad "the re-run signed the files again"; else ok; fi
kill "$PORTAL_PID"
portal PUBLISHED sdk,client
out=$(publish)
check "publish-central refuses a version Central has published in part" 1 $? "$out" \
	"publish-central: Central has published 2 artifacts of 1.2.0, but not client-ktx client-mcp protocol sdk-ksp sdk-ktx sdk-testing sdk-testing-engine"
if grep -q upload "$tmp/portal.log"; then bad "publish-central uploaded a version published in part"; else ok; fi
kill "$PORTAL_PID"

portal REFUSE
out=$(publish)
check "publish-central reports a refused bundle" 1 $? "$out" 'publish-central: the Central Portal refused the bundle: {"error":"invalid bundle"}'
kill "$PORTAL_PID"

out=$(publish CENTRAL_TOKEN_PASSWORD=)
check "publish-central without the token" 1 $? "$out" "publish-central: CENTRAL_TOKEN_PASSWORD is not set"
# The staged set is the publish list: every artifact a module names, and nothing else.
stage_set "$staging" 1.2.0 sdk sdk-testing sdk-testing-engine client sdk-ktx
out=$(publish)
check "publish-central refuses a staging without an artifact the release publishes" 1 $? "$out" \
	"publish-central: $staging has no client-ktx, which the release publishes (ci/pipeline.sh artifacts)"
# shellcheck disable=SC2086 # one argument per artifact
stage_set "$staging" 1.2.0 $released sdk-extras
out=$(publish)
check "publish-central refuses a staged artifact no module publishes" 1 $? "$out" \
	"publish-central: $staging has sdk-extras, which no module publishes (ci/pipeline.sh artifacts)"
# shellcheck disable=SC2086 # one argument per artifact
stage_set "$staging" 1.2.0 $released
mkdir -p "$staging/io/github/mobilemcp/client/1.1.0"
out=$(publish)
check "publish-central refuses a staging of two versions" 1 $? "$out" "publish-central: $staging has client at 1.1.0 1.2.0"
rm -r "$staging/io/github/mobilemcp/client/1.1.0" "$staging/io/github/mobilemcp/client/1.2.0/client-1.2.0-javadoc.jar"
out=$(publish)
check "publish-central without a javadoc jar" 1 $? "$out" "publish-central: $staging has no client -javadoc.jar"

if [ "$failures" -gt 0 ]; then
	echo "pipeline_test: $failures of $cases cases failed"
	exit 1
fi
echo "pipeline_test: $cases cases passed"

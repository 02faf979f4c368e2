#!/usr/bin/env bash
# pipeline.sh STEP ...: the steps of the pipeline in .github/workflows that need the Android SDK,
# an emulator or Maven Central's credentials, which only the hosted runners have. Each is a function
# here, so that ci/pipeline_test.sh runs it against fakes on any Linux machine (docs/internals/pipeline.md,
# "What each part is verified by", says what only a hosted runner verifies).
#
#   install-sdk NDK_VERSION   sdkmanager installs the pinned NDK, platform and build-tools, and
#                             records ANDROID_NDK_HOME for the following steps ($GITHUB_ENV)
#   install-build-tools       sdkmanager installs the pinned build-tools only (zipalign, apksigner)
#   enable-kvm                lets the emulator use /dev/kvm on a hosted Linux runner
#   collect OUTDIR            copies the SDK's AAR and both APKs to OUTDIR and checks every
#                             libmobilemcp.so they carry for 16 KB pages (mobilemcp check-align)
#   device-check REPORT       on a running emulator: mobilemcp adb check for the SMS app, then the
#                             notes sample's steps; every step's PASS or FAIL line goes to REPORT
#   version-code VERSION      the Android versionCode of a release version (1.2.3 -> 1020399;
#                             1.2.3-rc.1 -> 1020300, below the release): minor and patch below
#                             100, and every later version gets a higher code
#   release-version TAG RUN   the version a run builds: TAG without its v (v1.2.3 -> 1.2.3), or,
#                             with no TAG (a rehearsal), 0.0.1-rc.RUN: a pre-release that no
#                             release will ever have, with a positive versionCode
#   artifacts                 every artifact a release publishes, one "MODULE ARTIFACT" a line: the
#                             modules of android/ whose gradle.properties name a mobilemcp.artifactId
#   stage VERSION DIR         make sdk, then Gradle publishes every artifact (with the host engines
#                             in build/host-engines) at VERSION to the Maven repository DIR
#                             (ci/publish-central.sh uploads it)
#   apks VERSION OUTDIR       the SMS app's and the notes sample's release APKs at VERSION, unsigned,
#                             into OUTDIR (the publish job signs them)
#   sign-apks DIR             zipalign -P 16 and apksigner sign every *-unsigned.apk in DIR with the
#                             release key (ANDROID_KEYSTORE_BASE64, ANDROID_KEYSTORE_PASSWORD,
#                             ANDROID_KEY_ALIAS, ANDROID_KEY_PASSWORD), verify each, and write
#                             DIR/APKS.SHA256SUMS
#   sign-apks-throwaway DIR   sign-apks with a key made for the run (keytool), as every run of the
#                             release's jobs does before a reviewer approves the real signing
#   gate VERSION STAGING APKS CLI [PACKAGES]
#                             the release gate (internal/cmd/releasecheck) on everything the jobs built:
#                             the Maven repository STAGING (its AARs too, with -android), the APKs in
#                             APKS, the CLI archives in CLI, the desktop packages in PACKAGES; all five
#                             platforms' engines, and every binary built with go.mod's toolchain
#   packages-smoke VERSION PACKAGES
#                             npm installs the mobilemcp package and this system's @mobilemcp/cli-*
#                             package from PACKAGES offline, and pip the wheel into a virtual
#                             environment; each mobilemcp prints VERSION (the macOS and Windows
#                             runners, where ci/install-packages.sh does not run)
#   consumer-smoke VERSION STAGING
#                             installs the SDK platform android/consumer-smoke compiles against, then
#                             runs its McpToolRule test against VERSION from the repository STAGING
#   release-notes VERSION FILE  the release's notes: the Maven coordinates, and what is attached
#   github-release TAG NOTES FILE...
#                             gh release create TAG --verify-tag (the tag must exist: nothing is
#                             tagged by accident), --prerelease for a tag with a "-" (v1.2.0-rc.1),
#                             with NOTES as its notes and FILE... attached
#
# Overridable for the tests: GH, NODE, NPM, NPX, PYTHON, SDKMANAGER, ADB (passed to mobilemcp as its adb), MOBILEMCP (a built
# CLI; default: go build it), GRADLE (default ./gradlew in android/), MAKE, ANDROID_BUILD (default
# scripts/android-build.sh), APKSIGNER and ZIPALIGN (default: the newest build-tools' in $ANDROID_HOME),
# RELEASECHECK (default: go run ./internal/cmd/releasecheck), KEYTOOL, SUDO.
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
	echo "pipeline: $*" >&2
	exit 1
}

# What the steps leave in temporary files (a keystore among them) goes when the script ends,
# however it ends.
TEMPORARY=()
trap 'rm -rf "${TEMPORARY[@]}"' EXIT

# temporary VAR [-d]: a new temporary file (a directory with -d), removed at exit, in VAR.
temporary() {
	local path
	path=$(mktemp "${@:2}")
	TEMPORARY+=("$path")
	printf -v "$1" '%s' "$path"
}

need_args() {
	local want=$1 got=$2 usage=$3
	[ "$got" -eq "$want" ] || { echo "usage: ci/pipeline.sh $usage" >&2; exit 2; }
}

mobilemcp() {
	if [ -z "${MOBILEMCP:-}" ]; then
		go build -o build/mobilemcp ./cmd/mobilemcp
		MOBILEMCP=build/mobilemcp
	fi
	"$MOBILEMCP" "$@"
}

# sdk_install PACKAGE...: sdkmanager installs the SDK packages, its licenses accepted.
sdk_install() {
	local sdkmanager=${SDKMANAGER:-}
	[ -n "${ANDROID_HOME:-}" ] || fail "ANDROID_HOME is not set; the hosted runner sets it to its Android SDK"
	if [ -z "$sdkmanager" ]; then
		sdkmanager=$ANDROID_HOME/cmdline-tools/latest/bin/sdkmanager
		# The Windows runners' is a batch file, which Git Bash runs.
		[ -x "$sdkmanager" ] || [ ! -e "$sdkmanager.bat" ] || sdkmanager=$sdkmanager.bat
		[ -x "$sdkmanager" ] || fail "no sdkmanager at $sdkmanager"
	fi
	# sdkmanager asks to accept each license; the answer is yes.
	yes | "$sdkmanager" --licenses >/dev/null || true
	"$sdkmanager" --install "$@"
}

# install_build_tools: the pinned build-tools alone (zipalign, apksigner), for the jobs that build
# nothing.
install_build_tools() {
	sdk_install "$BUILD_TOOLS"
}

install_sdk() {
	local ndk=$1
	sdk_install "ndk;$ndk" "$PLATFORM" "$BUILD_TOOLS"
	[ -e "$ANDROID_HOME/ndk/$ndk/source.properties" ] || fail "sdkmanager did not install ndk;$ndk in $ANDROID_HOME/ndk/$ndk"
	echo "ANDROID_NDK_HOME=$ANDROID_HOME/ndk/$ndk" >> "${GITHUB_ENV:-/dev/null}"
}

enable_kvm() {
	local sudo=${SUDO:-sudo}
	echo 'KERNEL=="kvm", GROUP="kvm", MODE="0666", OPTIONS+="static_node=kvm"' |
		$sudo tee /etc/udev/rules.d/99-kvm4all.rules >/dev/null
	$sudo udevadm control --reload-rules
	$sudo udevadm trigger --name-match=kvm
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
	echo "pipeline: collected $(basename "$SDK_AAR"), $(basename "$APP_APK") and $(basename "$NOTES_APK") in $out"
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

version_code() {
	local version=$1 major minor patch pre
	[[ $version =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)(-[0-9A-Za-z.-]+)?$ ]] ||
		fail "VERSION $version is not a version such as 1.2.0 or 1.2.0-rc.1"
	major=${BASH_REMATCH[1]} minor=${BASH_REMATCH[2]} patch=${BASH_REMATCH[3]} pre=${BASH_REMATCH[4]}
	if [ "$minor" -ge 100 ] || [ "$patch" -ge 100 ] || [ "$major" -ge 2000 ]; then
		fail "VERSION $version does not fit a versionCode (minor and patch below 100, major below 2000)"
	fi
	# A pre-release counts below its release: 99 for the release, 00 for any pre-release.
	echo $(((major * 10000 + minor * 100 + patch) * 100 + (${#pre} > 0 ? 0 : 99)))
}

# gradle ARGS...: the build in android/, through the committed wrapper, at the release's version.
gradle() {
	(cd android && ${GRADLE:-./gradlew} --no-daemon "$@")
}

release_version() {
	local tag=$1 run=$2 version
	if [ -z "$tag" ]; then
		[[ $run =~ ^[0-9]+$ ]] || fail "RUN $run is not a run number"
		echo "0.0.1-rc.$run"
		return
	fi
	[[ $tag =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || fail "TAG $tag is not a release tag such as v1.2.0"
	version=${tag#v}
	version_code "$version" >/dev/null
	echo "$version"
}

# artifacts: "MODULE ARTIFACT" for every module that names the artifact it publishes (the root
# build file gives each such module its publication).
artifacts() {
	local props artifact list=""
	for props in android/*/gradle.properties; do
		[ -e "$props" ] || continue
		artifact=$(sed -n 's/^mobilemcp\.artifactId=//p' "$props")
		[ -z "$artifact" ] || list+="$(basename "$(dirname "$props")") $artifact"$'\n'
	done
	[ -n "$list" ] || fail "no module of android/ names a mobilemcp.artifactId in its gradle.properties"
	printf '%s' "$list" | LC_ALL=C sort -k2
}

stage() {
	local version=$1 dir=$2 code module artifact tasks=()
	code=$(version_code "$version")
	[ -e build/host-engines/io/github/mobilemcp/sdk/testing/engine/platforms ] ||
		fail "build/host-engines holds no host engines; the release gathers them there before it stages"
	while read -r module artifact; do
		tasks+=(":$module:publishAllPublicationsToStagingRepository")
	done < <(artifacts)
	${MAKE:-make} sdk
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	gradle -Pmobilemcp.version="$version" -Pmobilemcp.versionCode="$code" -Pmobilemcp.stagingRepo="$dir" "${tasks[@]}"
	echo "pipeline: staged io.github.mobilemcp $version (${#tasks[@]} artifacts) in $dir"
}

apks() {
	local version=$1 out=$2 code app
	code=$(version_code "$version")
	mkdir -p "$out"
	# Each app with its own engine: the SMS app's has ./smsapp beside the tool engine. Each engine
	# carries the version, which the SMS app's MCP server names in serverInfo.
	for app in app notes; do
		if [ "$app" = app ]; then
			MOBILEMCP_VERSION=$version ${ANDROID_BUILD:-scripts/android-build.sh} aar app
		else
			MOBILEMCP_VERSION=$version ${ANDROID_BUILD:-scripts/android-build.sh} aar
		fi
		gradle -Pmobilemcp.version="$version" -Pmobilemcp.versionCode="$code" ":$app:assembleRelease"
		cp "android/$app/build/outputs/apk/release/$app-release-unsigned.apk" "$out/mobilemcp-$app-$version-unsigned.apk"
	done
	echo "pipeline: built the release APKs of the SMS app and the notes sample ($version, versionCode $code) in $out"
}

# build_tool NAME: the newest build-tools' NAME (apksigner, zipalign).
build_tool() {
	local tool newest=
	for tool in "${ANDROID_HOME:-/nonexistent}"/build-tools/*/"$1"; do
		[ -x "$tool" ] && newest=$tool
	done
	[ -n "$newest" ] || fail "no $1 in \$ANDROID_HOME/build-tools; install build-tools (ci/pipeline.sh install-sdk)"
	echo "$newest"
}

sign_apks() {
	local dir=$1 apksigner zipalign unsigned signed keystore found=0
	for var in ANDROID_KEYSTORE_BASE64 ANDROID_KEYSTORE_PASSWORD ANDROID_KEY_ALIAS ANDROID_KEY_PASSWORD; do
		[ -n "${!var:-}" ] || fail "$var is not set; the release workflow takes it from the repository's secrets"
	done
	apksigner=${APKSIGNER:-$(build_tool apksigner)}
	zipalign=${ZIPALIGN:-$(build_tool zipalign)}
	temporary keystore
	printf '%s' "$ANDROID_KEYSTORE_BASE64" | base64 -d >"$keystore"
	: >"$dir/APKS.SHA256SUMS"
	for unsigned in "$dir"/*-unsigned.apk; do
		[ -e "$unsigned" ] || continue
		found=$((found + 1))
		signed=${unsigned%-unsigned.apk}.apk
		# Aligned before signing, as APK Signature Scheme v2 requires; -P 16: native libraries at 16 KB.
		"$zipalign" -f -P 16 4 "$unsigned" "$signed.aligned"
		# The passwords reach apksigner through the environment, never its command line.
		"$apksigner" sign --ks "$keystore" --ks-key-alias "$ANDROID_KEY_ALIAS" --ks-pass env:ANDROID_KEYSTORE_PASSWORD \
			--key-pass env:ANDROID_KEY_PASSWORD --out "$signed" "$signed.aligned"
		rm -f "$signed.aligned" "$signed.idsig" "$unsigned"
		"$apksigner" verify "$signed" || fail "$signed does not verify after signing"
		(cd "$dir" && sha256sum -- "$(basename "$signed")" >>APKS.SHA256SUMS)
	done
	[ "$found" -gt 0 ] || fail "no *-unsigned.apk in $dir; ci/pipeline.sh apks builds them"
	echo "pipeline: signed $found APKs in $dir"
}

# sign_apks_throwaway DIR: sign_apks with a key made here and thrown away: the signing steps and
# the signed APKs' checks run on every run of the release's jobs, and only the publish job has the
# release key.
sign_apks_throwaway() {
	local dir=$1 keys password
	temporary keys -d
	password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
	if ! THROWAWAY_PASSWORD=$password ${KEYTOOL:-keytool} -genkeypair -keystore "$keys/throwaway.jks" -storetype PKCS12 \
		-alias throwaway -keyalg RSA -keysize 2048 -validity 1 -dname "CN=mobilemcp throwaway key" \
		-storepass:env THROWAWAY_PASSWORD -keypass:env THROWAWAY_PASSWORD </dev/null >"$keys/keytool.log" 2>&1; then
		fail "keytool could not make the throwaway key: $(tail -n 1 "$keys/keytool.log")"
	fi
	ANDROID_KEYSTORE_BASE64=$(base64 <"$keys/throwaway.jks" | tr -d '\n') ANDROID_KEYSTORE_PASSWORD=$password \
		ANDROID_KEY_ALIAS=throwaway ANDROID_KEY_PASSWORD=$password sign_apks "$dir"
}

# releasecheck ARGS...: the release gate.
releasecheck() {
	if [ -n "${RELEASECHECK:-}" ]; then
		"$RELEASECHECK" "$@"
	else
		go run ./internal/cmd/releasecheck "$@"
	fi
}

gate() {
	local version=$1 staging=$2 apks=$3 cli=$4 packages=${5:-} android=build/gate-android artifact aar found=0 zipalign
	local more=()
	[ -d "$staging" ] || fail "no staging repository at $staging; ci/pipeline.sh stage makes it"
	[ -d "$cli" ] || fail "no CLI archives in $cli; ci/release-binaries.sh makes them"
	rm -rf "$android"
	mkdir -p "$android"
	# Every AAR Gradle staged, by its published name (ARTIFACT-VERSION.aar), and the APKs.
	while read -r _ artifact; do
		aar=$staging/io/github/mobilemcp/$artifact/$version/$artifact-$version.aar
		[ -e "$aar" ] && cp "$aar" "$android/" && found=$((found + 1))
	done < <(artifacts)
	[ "$found" -gt 0 ] || fail "$staging holds no AAR of version $version"
	cp "$apks"/*.apk "$android/" 2>/dev/null || fail "no APK in $apks; ci/pipeline.sh apks builds them"
	if [ -n "$packages" ]; then
		[ -d "$packages" ] || fail "no desktop packages in $packages; ci/release-packages.sh makes them"
		more=(-packages "$packages")
	fi
	zipalign=${ZIPALIGN:-$(build_tool zipalign)}
	ZIPALIGN=$zipalign releasecheck -version "$version" -staging "$staging" -android "$android" -release "$cli" "${more[@]}" \
		-engines linux-x86_64,linux-aarch64,windows-x86_64,macos-x86_64,macos-aarch64 \
		-go "$(scripts/go-toolchain.sh)" -build-id "$(scripts/build-id.sh)"
}

# packages_smoke VERSION PACKAGES: the desktop packages installed offline and run, as a user on this
# system installs them. The scratch directory is the runner's ($RUNNER_TEMP, a path every tool on
# Windows reads), else a temporary one.
packages_smoke() {
	local version=$1 packages=$2 scratch=${RUNNER_TEMP:-} system main platform python bin out
	[ -d "$packages" ] || fail "no desktop packages in $packages; ci/release-packages.sh makes them"
	packages=$(cd "$packages" && pwd)
	[ -n "$scratch" ] || temporary scratch -d
	system=$(${NODE:-node} -p 'process.platform + "-" + process.arch') || fail "node cannot name this system"
	main=$packages/npm/mobilemcp-$version.tgz
	platform=$packages/npm/mobilemcp-cli-$system-$version.tgz
	for f in "$main" "$platform"; do
		[ -e "$f" ] || fail "no $(basename "$f") in $packages/npm: ci/release-packages.sh builds one for each system ($system here)"
	done
	mkdir -p "$scratch/npm"
	out=$(cd "$scratch/npm" && npm_config_cache=$scratch/npm-cache ${NPM:-npm} install --offline --no-audit --no-fund --prefix . "$main" "$platform" 2>&1) ||
		fail "npm install of mobilemcp and @mobilemcp/cli-$system (offline): $(tail -n 3 <<<"$out")"
	out=$(cd "$scratch/npm" && npm_config_cache=$scratch/npm-cache ${NPX:-npx} --offline mobilemcp version 2>&1) ||
		fail "npx mobilemcp version: $(tail -n 3 <<<"$out")"
	[[ $out == "mobilemcp $version (build "* ]] || fail "npx mobilemcp version printed \"$out\", not mobilemcp $version (build ...)"
	echo "pipeline: npm: $out"
	# setup-python gives every runner a python; elsewhere it may be python3 alone.
	python=${PYTHON:-$(command -v python || command -v python3)} || fail "no python or python3 on PATH"
	"$python" -m venv "$scratch/venv" || fail "$python -m venv failed"
	bin=$scratch/venv/bin
	[ -d "$bin" ] || bin=$scratch/venv/Scripts # Windows
	out=$("$bin/python" -m pip install --disable-pip-version-check --no-index --find-links "$packages/pypi" mobilemcp 2>&1) ||
		fail "pip install mobilemcp (offline): $(tail -n 3 <<<"$out")"
	out=$("$bin/mobilemcp" version 2>&1) || fail "the wheel's mobilemcp version: $(tail -n 3 <<<"$out")"
	[[ $out == "mobilemcp $version (build "* ]] || fail "the wheel's mobilemcp version printed \"$out\", not mobilemcp $version (build ...)"
	echo "pipeline: pip: $out"
	echo "pipeline: the npm package and the wheel of $version install offline and run on $system"
}

consumer_smoke() {
	local version=$1 staging=$2 compile repo
	compile=$(sed -n 's/^ *compileSdk *= *\([0-9][0-9]*\).*/\1/p' android/consumer-smoke/build.gradle.kts)
	[ -n "$compile" ] || fail "android/consumer-smoke/build.gradle.kts sets no compileSdk"
	[ -d "$staging" ] || fail "no staging repository at $staging; the stage job makes it"
	# The platform the app compiles against, and the build-tools AGP uses: a runner's image need not
	# have them.
	sdk_install "platforms;android-$compile" "$BUILD_TOOLS"
	# The repository as a path from the consumer's directory, which Gradle reads the same on every
	# OS (an absolute path from Git Bash, /d/a/..., is no path to Java on Windows).
	case "$staging" in
	/*) repo=$staging ;;
	*) repo=../../$staging ;;
	esac
	gradle -p consumer-smoke "-Pmobilemcp.stagingRepo=$repo" "-Pmobilemcp.version=$version" test
	echo "pipeline: the consumer app's tests passed against io.github.mobilemcp $version from $staging"
}

release_notes() {
	local version=$1 file=$2 artifact
	mkdir -p "$(dirname "$file")"
	{
		echo "## Maven Central"
		echo
		echo "Add to a tool app's \`build.gradle.kts\` (docs/tool-sdk.md):"
		echo
		echo '```kotlin'
		echo "implementation(\"io.github.mobilemcp:sdk:$version\")"
		echo "testImplementation(\"io.github.mobilemcp:sdk-testing:$version\")"
		echo "testImplementation(\"io.github.mobilemcp:client:$version\")"
		echo '```'
		echo
		while read -r _ artifact; do
			echo "- \`io.github.mobilemcp:$artifact:$version\`"
		done < <(artifacts)
		echo
		echo "## Attached"
		echo
		echo "- \`mobilemcp-app-$version.apk\`: the SMS app (the gateway for desktop agents), and"
		echo "  \`mobilemcp-notes-$version.apk\`: the notes sample, signed with the project's release key;"
		echo "  their SHA-256 in \`APKS.SHA256SUMS\`."
		echo "- \`mobilemcp-$version-<os>-<arch>\`: the \`mobilemcp\` command line for Linux, macOS and"
		echo "  Windows on amd64 and arm64, each with LICENSE and a README; their SHA-256 in \`SHA256SUMS\`."
		echo
		echo "Check a download with \`sha256sum -c SHA256SUMS --ignore-missing\`. CHANGELOG.md says what changed."
	} >"$file"
	echo "pipeline: wrote the release notes of $version to $file"
}

github_release() {
	local tag=$1 notes=$2 flags=(--verify-tag --title "mobilemcp ${1#v}" --notes-file "$2")
	shift 2
	[[ $tag =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] || fail "TAG $tag is not a release tag such as v1.2.0"
	[ -s "$notes" ] || fail "the notes file $notes is empty or missing; ci/pipeline.sh release-notes writes it"
	[ $# -gt 0 ] || fail "nothing to attach to $tag"
	case "$tag" in *-*) flags+=(--prerelease) ;; esac
	${GH:-gh} release create "$tag" "${flags[@]}" "$@"
	echo "pipeline: released $tag with $# files"
}

STEPS="install-sdk, install-build-tools, enable-kvm, collect, device-check, version-code, release-version, artifacts, stage, apks, sign-apks, sign-apks-throwaway, gate, packages-smoke, consumer-smoke, release-notes and github-release"
[ $# -ge 1 ] || { echo "usage: ci/pipeline.sh STEP ...; the steps are $STEPS" >&2; exit 2; }
cmd=$1
shift
case "$cmd" in
install-sdk) need_args 1 $# "install-sdk NDK_VERSION"; install_sdk "$1" ;;
install-build-tools) need_args 0 $# "install-build-tools"; install_build_tools ;;
enable-kvm) need_args 0 $# "enable-kvm"; enable_kvm ;;
collect) need_args 1 $# "collect OUTDIR"; collect "$1" ;;
device-check) need_args 1 $# "device-check REPORT"; device_check "$1" ;;
version-code) need_args 1 $# "version-code VERSION"; version_code "$1" ;;
release-version) need_args 2 $# "release-version TAG RUN"; release_version "$1" "$2" ;;
artifacts) need_args 0 $# "artifacts"; artifacts ;;
stage) need_args 2 $# "stage VERSION DIR"; stage "$1" "$2" ;;
apks) need_args 2 $# "apks VERSION OUTDIR"; apks "$1" "$2" ;;
sign-apks) need_args 1 $# "sign-apks DIR"; sign_apks "$1" ;;
sign-apks-throwaway) need_args 1 $# "sign-apks-throwaway DIR"; sign_apks_throwaway "$1" ;;
gate) [ $# = 4 ] || [ $# = 5 ] || { echo "usage: ci/pipeline.sh gate VERSION STAGING APKS CLI [PACKAGES]" >&2; exit 2; }; gate "$@" ;;
packages-smoke) need_args 2 $# "packages-smoke VERSION PACKAGES"; packages_smoke "$1" "$2" ;;
consumer-smoke) need_args 2 $# "consumer-smoke VERSION STAGING"; consumer_smoke "$1" "$2" ;;
release-notes) need_args 2 $# "release-notes VERSION FILE"; release_notes "$1" "$2" ;;
github-release) [ $# -ge 3 ] || { echo "usage: ci/pipeline.sh github-release TAG NOTES FILE..." >&2; exit 2; }; github_release "$@" ;;
*) echo "pipeline: unknown step $cmd; the steps are $STEPS" >&2; exit 2 ;;
esac

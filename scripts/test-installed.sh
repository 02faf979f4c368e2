#!/usr/bin/env bash
# test-installed.sh [--install] MODULE: runs the Robolectric tests of the tool module android/MODULE
# (notes, or any tool module of the harness) against the libraries installed in the local Maven
# repository, the way a tool developer's build does: with no go on the PATH and no build/ of this
# checkout, so the engine the tests run is the host engine inside the installed engine jar
# (sdk-testing-engine, which the installed sdk-testing depends on).
#
#   --install   first installs the libraries (io.github.mobilemcp:sdk, client and sdk-testing, and
#               the harness that plays the Android Gradle Plugin here) from this checkout, which
#               needs Go (scripts/host-engine.sh tests); make test-installed does.
#
# The module is staged in build/test-installed/ with only what a tool developer has: its own
# sources, the harness, and the sdk's Android half (manifest, identity, res/) taken from the
# installed sdk jar, as AGP takes it from the AAR. Maven resolves sdk, client and sdk-testing from
# the local repository, never from this checkout's modules.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

USAGE="usage: scripts/test-installed.sh [--install] MODULE"
install=0
if [ "${1:-}" = --install ]; then
	install=1
	shift
fi
[ $# = 1 ] || { echo "$USAGE" >&2; exit 2; }
module=$1
if [ ! -f "android/$module/pom.xml" ] || [ ! -f "android/$module/AndroidManifest.xml" ]; then
	echo "test-installed: android/$module is not a tool module of the harness (it needs pom.xml and AndroidManifest.xml)" >&2
	exit 2
fi

repo=$(scripts/deps.sh maven-repo)
version=0-SNAPSHOT
sdk_jar=$repo/io/github/mobilemcp/sdk/$version/sdk-$version.jar

if [ "$install" = 1 ]; then
	scripts/deps.sh maven
	scripts/host-engine.sh tests
	echo "test-installed: installing sdk, client, sdk-testing, sdk-testing-engine and the harness into $repo"
	mvn -B -q -o -f android/pom.xml -pl harness,sdk,client,sdk-testing -am install -DskipTests
fi
for artifact in sdk client sdk-testing sdk-testing-engine; do
	[ -f "$repo/io/github/mobilemcp/$artifact/$version/$artifact-$version.jar" ] ||
		{ echo "test-installed: io.github.mobilemcp:$artifact:$version is not in $repo; run with --install (make test-installed does)" >&2; exit 1; }
done

# The stage: what a tool developer's project has, and nothing of this checkout's build.
stage=$ROOT/build/test-installed
rm -rf "$stage"
mkdir -p "$stage/android/sdk"
cp android/pom.xml android/gradle.properties "$stage/android/"
(cd android && tar cf - --exclude=target harness) | (cd "$stage/android" && tar xf -)
(cd android && tar cf - --exclude=target "$module") | (cd "$stage/android" && tar xf -)
(cd "$stage/android/sdk" && unzip -q "$sdk_jar" 'META-INF/mobilemcp-sdk/*' && mv META-INF/mobilemcp-sdk/* . && rm -rf META-INF)

# A PATH without go, as on a machine that never installed it.
path=
IFS=: read -ra dirs <<<"$PATH"
for dir in "${dirs[@]}"; do
	[ -x "$dir/go" ] || path+=${path:+:}$dir
done
if PATH=$path command -v go >/dev/null; then
	echo "test-installed: go is still on the PATH" >&2
	exit 1
fi
[ ! -e "$stage/build" ] || { echo "test-installed: $stage/build exists" >&2; exit 1; }

echo "test-installed: android/$module against the installed io.github.mobilemcp:sdk, client, sdk-testing and sdk-testing-engine $version, without go"
status=0
# Robolectric's framework jars are copied once by the harness module's build in this checkout;
# they are Maven Central's, not this project's.
PATH=$path mvn -B -q -o -f "$stage/android/$module/pom.xml" test \
	-Drobolectric.deps="$ROOT/android/harness/target/robolectric-deps" || status=$?

shopt -s nullglob
reports=("$stage/android/$module"/target/surefire-reports/*.txt)
awk -F'[:,] *' -v module="$module" '
	/^Tests run:/ { run += $2; failed += $4; errors += $6; skipped += $8 }
	END { printf "test-installed: %s: %d Robolectric tests, %d failures, %d errors, %d skipped\n", module, run, failed, errors, skipped }' "${reports[@]}" /dev/null
if [ "$status" = 0 ] && [ ${#reports[@]} = 0 ]; then
	echo "test-installed: no test ran" >&2
	status=1
fi
exit $status

#!/usr/bin/env bash
# test-installed.sh [--install] MODULE: runs the Robolectric tests of the tool module android/MODULE
# (notes, consumer-smoke, or any tool module of the harness) against the libraries installed in the local Maven
# repository, the way a tool developer's build does: with no go on the PATH and no build/ of this
# checkout, so the engine the tests run is the host engine inside the installed engine jar
# (sdk-testing-engine, which the installed sdk-testing depends on). It first checks that the engine's
# Java (io.github.mobilemcp:intentbridge, which the installed sdk depends on at runtime scope, as the
# AAR carries it in libs/ beside an api.jar of the sdk's own classes) is on the module's runtime
# classpath and not on its compile classpath.
#
#   --install   first installs the libraries (io.github.mobilemcp:sdk, client and sdk-testing, the
#               engine's Java, and the harness that plays the Android Gradle Plugin here) from this checkout, which
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
# android/consumer-smoke is a Gradle project: the harness builds it with its own pom
# (android/harness/consumer-smoke), its sources staged where the harness looks for them.
gradle_layout=0
if [ "$module" = consumer-smoke ]; then
	gradle_layout=1
elif [ ! -f "android/$module/pom.xml" ] || [ ! -f "android/$module/AndroidManifest.xml" ]; then
	echo "test-installed: android/$module is not a tool module of the harness (it needs pom.xml and AndroidManifest.xml)" >&2
	exit 2
fi

repo=$(scripts/deps.sh maven-repo)
version=0-SNAPSHOT
sdk_jar=$repo/io/github/mobilemcp/sdk/$version/sdk-$version.jar

if [ "$install" = 1 ]; then
	scripts/deps.sh maven
	scripts/host-engine.sh tests
	echo "test-installed: installing protocol, sdk, sdk-ktx, sdk-ksp, intentbridge, client, client-mcp, sdk-testing, sdk-testing-engine and the harness into $repo"
	mvn -B -q -o -f android/pom.xml -pl harness,protocol,sdk,sdk-ktx,sdk-ksp,client,client-mcp,sdk-testing -am install -DskipTests
fi
for artifact in protocol sdk sdk-ktx sdk-ksp intentbridge client client-mcp sdk-testing sdk-testing-engine; do
	[ -f "$repo/io/github/mobilemcp/$artifact/$version/$artifact-$version.jar" ] ||
		{ echo "test-installed: io.github.mobilemcp:$artifact:$version is not in $repo; run with --install (make test-installed does)" >&2; exit 1; }
done

# The stage: what a tool developer's project has, and nothing of this checkout's build.
stage=$ROOT/build/test-installed
rm -rf "$stage"
mkdir -p "$stage/android/sdk"
cp android/pom.xml android/gradle.properties "$stage/android/"
(cd android && tar cf - --exclude=target harness) | (cd "$stage/android" && tar xf -)
if [ "$gradle_layout" = 1 ]; then
	mkdir -p "$stage/android/$module/src"
	cp "android/harness/$module/pom.xml" "android/harness/$module/gradle.properties" "android/$module/src/main/AndroidManifest.xml" "$stage/android/$module/"
	cp -R "android/$module/src/main/res" "$stage/android/$module/res"
	mkdir -p "$stage/android/$module/src/main"
	for dir in kotlin java; do
		[ ! -d "android/$module/src/main/$dir" ] || cp -R "android/$module/src/main/$dir" "$stage/android/$module/src/main/"
	done
	cp -R "android/$module/src/test" "$stage/android/$module/src/"
else
	(cd android && tar cf - --exclude=target "$module") | (cd "$stage/android" && tar xf -)
fi
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

# The engine's Java at run time only: a probe that names an engine class compiles against the
# module's runtime classpath and not against its compile classpath.
probe=$stage/engine-probe
mkdir -p "$probe/src" "$probe/classes"
printf 'class EngineProbe { io.github.mobilemcp.intentbridge.Intentbridge engine; io.github.mobilemcp.engine.go.Seq seq; }\n' >"$probe/src/EngineProbe.java"
for scope in compile runtime; do
	PATH=$path mvn -B -q -o -f "$stage/android/$module/pom.xml" dependency:build-classpath \
		-DincludeScope=$scope -Dmdep.outputFile="$probe/$scope.txt" >/dev/null
done
if javac -d "$probe/classes" -cp "$(cat "$probe/compile.txt")" "$probe/src/EngineProbe.java" 2>"$probe/compile.log"; then
	# Name the jars that hold it.
	tr : '\n' <"$probe/compile.txt" | while read -r entry; do
		if [ -f "$entry/io/github/mobilemcp/intentbridge/Intentbridge.class" ] || { [ -f "$entry" ] && unzip -Z1 "$entry" 2>/dev/null | grep -q '^io/github/mobilemcp/intentbridge/.*\.class$'; }; then
			echo "test-installed: the engine's Java is on android/$module's compile classpath, in $entry" >&2
		fi
	done
	exit 1
fi
grep -q 'package io.github.mobilemcp.intentbridge does not exist' "$probe/compile.log" ||
	{ echo "test-installed: the engine probe failed for another reason:" >&2; cat "$probe/compile.log" >&2; exit 1; }
javac -d "$probe/classes" -cp "$(cat "$probe/runtime.txt")" "$probe/src/EngineProbe.java" 2>"$probe/runtime.log" ||
	{ echo "test-installed: the engine's Java is not on android/$module's runtime classpath:" >&2; cat "$probe/runtime.log" >&2; exit 1; }
echo "test-installed: the engine's Java is on android/$module's runtime classpath, not its compile classpath (javac: package io.github.mobilemcp.intentbridge does not exist)"

# A tool compiles against the sdk and the protocol vocabulary, not the assistants' client library: a
# probe that names the client and the protocol compiles only as far as the protocol.
printf 'class ClientProbe { io.github.mobilemcp.client.MobileMcpClient client; }\n' >"$probe/src/ClientProbe.java"
printf 'class ProtocolProbe { io.github.mobilemcp.ErrorCode code; io.github.mobilemcp.Consent consent; }\n' >"$probe/src/ProtocolProbe.java"
javac -d "$probe/classes" -cp "$(cat "$probe/compile.txt")" "$probe/src/ProtocolProbe.java" 2>"$probe/protocol.log" ||
	{ echo "test-installed: the protocol vocabulary is not on android/$module's compile classpath:" >&2; cat "$probe/protocol.log" >&2; exit 1; }
if javac -d "$probe/classes" -cp "$(cat "$probe/compile.txt")" "$probe/src/ClientProbe.java" 2>"$probe/client.log"; then
	echo "test-installed: the client library is on android/$module's compile classpath: a tool app would see MobileMcpClient" >&2
	exit 1
fi
grep -q 'package io.github.mobilemcp.client does not exist' "$probe/client.log" ||
	{ echo "test-installed: the client probe failed for another reason:" >&2; cat "$probe/client.log" >&2; exit 1; }
echo "test-installed: android/$module compiles against io.github.mobilemcp.ErrorCode and Consent, and without the client library (javac: package io.github.mobilemcp.client does not exist)"

echo "test-installed: android/$module against the installed io.github.mobilemcp:protocol, sdk, sdk-ktx, sdk-ksp, intentbridge, client, client-mcp, sdk-testing and sdk-testing-engine $version, without go"
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

#!/usr/bin/env bash
# release-check.sh VERSION: the release gate on this machine (make release-check VERSION=x.y.z).
# It assembles everything a v<VERSION> tag would publish that builds without the Android Gradle
# Plugin, then checks all of it (internal/cmd/releasecheck), one PASS or FAIL line per check, and exits
# non-zero on any FAIL:
#
#   build/host-engines   the host engines this machine builds (scripts/host-engines.sh, with its own checks)
#   build/staging        a Maven repository as the release stages it: the engine jar
#                        (sdk-testing-engine, every platform this machine builds), the protocol jar, the
#                        KSP processor's jar (sdk-ksp) and, as
#                        jars, the libraries Gradle publishes as AARs (sdk, client, client-ktx, client-mcp,
#                        sdk-testing, sdk-ktx: the host harness's build of the same sources), each with its POM, sources and javadoc
#                        jars, signed with a throwaway key and checksummed (ci/publish-central.sh sign)
#   build/release        the CLI archives for six platforms with SHA256SUMS (ci/release-binaries.sh)
#   build/packages       the npm packages, the PyPI wheels, the Claude Desktop bundles and the MCP
#                        Registry's server.json, built from those archives (ci/release-packages.sh),
#                        then installed offline and run (ci/install-packages.sh, and ci/pipeline.sh
#                        packages-smoke, which the release's jobs run on macOS and Windows)
#
# The release workflow runs the same checks on what Gradle staged and on the AARs and APKs, which
# need the Android SDK (docs/internals/pipeline.md).
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: ci/release-check.sh VERSION (such as 1.2.0, without the v)"
[ $# = 1 ] || { echo "$usage" >&2; exit 2; }
version=$1
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]] ||
	{ echo "release-check: VERSION $version is not a version such as 1.2.0; $usage" >&2; exit 2; }

staging=build/staging
release=build/release
packages=build/packages
work=build/release-check
group=io/github/mobilemcp

fail() {
	echo "release-check: $*" >&2
	exit 1
}

rm -rf "$staging" "$release" "$packages" "$work"
mkdir -p "$staging" "$work"
go build -o "$work/releasecheck" ./internal/cmd/releasecheck

echo "release-check: the host engines"
scripts/host-engines.sh build/host-engines
echo "release-check: the libraries (the host harness's build, offline)"
scripts/deps.sh maven >/dev/null
scripts/host-engine.sh tests >/dev/null
mvn -B -q -o -f android/pom.xml package -pl protocol,sdk,client,client-ktx,client-mcp,sdk-testing-engine,sdk-testing,sdk-ktx,sdk-ksp -am -DskipTests \
	-Dmdep.outputFile=target/release-classpath.txt dependency:build-classpath

# The POM metadata Gradle writes for every publication (android/build.gradle.kts), and each
# artifact's own: its description (its gradle.properties) and its dependencies, as the Gradle build
# declares them (api: compile, implementation: runtime), read from its build files by the gate that
# then checks the POMs Gradle writes the same way.
description() {
	sed -n 's/^mobilemcp\.description=//p' "android/$1/gradle.properties"
}
pom() {
	local artifact=$1 module=$2 dep scope g a v deps
	deps=$("$work/releasecheck" -version "$version" -pom-dependencies "$artifact")
	cat <<EOF
<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 https://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.github.mobilemcp</groupId>
  <artifactId>$artifact</artifactId>
  <version>$version</version>
  <name>mobilemcp $artifact</name>
  <description>$(description "$module")</description>
  <url>https://github.com/mobilemcp/mobilemcp</url>
  <licenses>
    <license>
      <name>Apache License, Version 2.0</name>
      <url>https://www.apache.org/licenses/LICENSE-2.0.txt</url>
    </license>
  </licenses>
  <developers>
    <developer>
      <id>mobilemcp</id>
      <name>The mobilemcp authors</name>
      <url>https://github.com/mobilemcp</url>
    </developer>
  </developers>
  <scm>
    <url>https://github.com/mobilemcp/mobilemcp</url>
    <connection>scm:git:https://github.com/mobilemcp/mobilemcp.git</connection>
  </scm>
  <dependencies>
EOF
	while read -r dep scope excluded; do
		[ -n "$dep" ] || continue
		IFS=: read -r g a v <<<"$dep"
		printf '    <dependency>\n      <groupId>%s</groupId>\n      <artifactId>%s</artifactId>\n      <version>%s</version>\n      <scope>%s</scope>\n' "$g" "$a" "$v" "$scope"
		# A group the dependency leaves out of its own (client-mcp's MCP Kotlin SDK without ktor).
		[ -z "$excluded" ] || printf '      <exclusions>\n        <exclusion>\n          <groupId>%s</groupId>\n          <artifactId>*</artifactId>\n        </exclusion>\n      </exclusions>\n' "$excluded"
		printf '    </dependency>\n'
	done <<<"$deps"
	printf '  </dependencies>\n</project>\n'
}

# jar_of DIR JAR: a jar of DIR's files, with LICENSE in META-INF.
jar_of() {
	mkdir -p "$1/META-INF"
	cp LICENSE "$1/META-INF/LICENSE"
	jar cf "$2" -C "$1" .
}

# stage ARTIFACT MODULE SOURCES...: the artifact's jar, POM, sources and javadoc into the repository.
stage() {
	local artifact=$1 module=$2 dir src sources=$work/$1-sources docs=$work/$1-javadoc
	shift 2
	dir=$staging/$group/$artifact/$version
	mkdir -p "$dir" "$sources" "$docs"
	cp "android/$module/target/$artifact-0-SNAPSHOT.jar" "$dir/$artifact-$version.jar"
	pom "$artifact" "$module" >"$dir/$artifact-$version.pom"
	for src in "$@"; do
		cp -r "$src/." "$sources/"
	done
	if find "$sources" -name '*.java' | grep -q .; then
		javadoc -quiet -Xdoclint:none -encoding UTF-8 -docencoding UTF-8 -charset UTF-8 -d "$docs" -sourcepath "$sources" \
			-classpath "$(cat "android/$module/target/release-classpath.txt"):android/protocol/target/classes:android/sdk/target/classes:android/client/target/classes" \
			-subpackages io.github.mobilemcp >"$work/$artifact-javadoc.log" 2>&1 ||
			fail "javadoc of $artifact failed: $(tail -n 3 "$work/$artifact-javadoc.log")"
	else
		# No Java to document (the engine jar's natives, the Kotlin of sdk-ktx and sdk-ksp): Central still wants the jar.
		printf 'mobilemcp %s %s: see https://github.com/mobilemcp/mobilemcp (docs/tool-sdk.md).\n' "$artifact" "$version" >"$docs/README.md"
		[ -n "$(ls -A "$sources")" ] || cp "$docs/README.md" "$sources/README.md"
	fi
	jar_of "$sources" "$dir/$artifact-$version-sources.jar"
	jar_of "$docs" "$dir/$artifact-$version-javadoc.jar"
}
echo "release-check: staging $version in $staging"
stage protocol protocol android/protocol/src/main/java
stage sdk sdk android/sdk/src/main/java
stage client client android/client/src/main/java
stage sdk-testing sdk-testing android/sdk-testing/src/main/java
stage sdk-ktx sdk-ktx android/sdk-ktx/src/main/kotlin
stage client-ktx client-ktx android/client-ktx/src/main/kotlin
stage client-mcp client-mcp android/client-mcp/src/main/kotlin
stage sdk-ksp sdk-ksp android/sdk-ksp/src/main/kotlin
stage sdk-testing-engine sdk-testing-engine

# Signed as the release signs them, with a key made for this run only.
export GNUPGHOME=$work/gnupg
mkdir -p "$GNUPGHOME"
chmod 700 "$GNUPGHOME"
gpg --batch --quiet --pinentry-mode loopback --passphrase release-check --quick-gen-key "mobilemcp release check <release-check@mobilemcp.invalid>" ed25519 sign 1d
GPG_PRIVATE_KEY=$(gpg --batch --quiet --pinentry-mode loopback --passphrase release-check --armor --export-secret-keys)
gpg --batch --quiet --armor --export >"$work/public-key.asc"
GPG_PRIVATE_KEY=$GPG_PRIVATE_KEY GPG_PASSPHRASE=release-check ci/publish-central.sh sign "$staging" 2>&1 | tail -n 1
unset GNUPGHOME

echo "release-check: the CLI archives"
ci/release-binaries.sh "$version" "$release" | tail -n 1

echo "release-check: the npm, PyPI and Claude Desktop packages, from the archives"
scripts/deps.sh packaging >/dev/null
ci/release-packages.sh "$version" "$release" "$packages" | tail -n 1

echo "release-check: checking"
"$work/releasecheck" -version "$version" -staging "$staging" -jars -public-key "$work/public-key.asc" \
	-release "$release" -packages "$packages" -build-id "$(scripts/build-id.sh)" -go "$(scripts/go-toolchain.sh)"

echo "release-check: installing the packages offline, and running them"
ci/install-packages.sh "$version" "$packages" "$(scripts/build-id.sh)"
echo "release-check: the packages-smoke step of the macOS and Windows runners, on this machine"
ci/pipeline.sh packages-smoke "$version" "$packages"

#!/usr/bin/env bash
# Tests of scripts/deps.sh: what make serve fetches, its limit of apt's sources to the machine's
# architecture, and its view of the local Maven repository, which decides where the stamp of a
# filled repository goes and where make test-installed finds the installed libraries. It must be the
# repository Maven itself uses: MAVEN_OPTS's -Dmaven.repo.local, else ~/.m2/repository under Java's
# user.home, which Java takes from the user's account, not from $HOME.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1

failures=0
cases=0
check() {
	local name=$1 got=$2 want=$3
	cases=$((cases + 1))
	if [ "$got" != "$want" ]; then
		echo "FAIL $name: got $got, want $want"
		failures=$((failures + 1))
	fi
}

java_home_dir=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *user\.home = //p')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

check "the default is under Java's user.home" \
	"$(env -u MAVEN_OPTS scripts/deps.sh maven-repo)" "$java_home_dir/.m2/repository"
check "a HOME that is not the account's home does not move Maven's repository" \
	"$(env -u MAVEN_OPTS HOME="$tmp" scripts/deps.sh maven-repo)" "$java_home_dir/.m2/repository"
check "MAVEN_OPTS moves it" \
	"$(MAVEN_OPTS="-Xmx1g -Dmaven.repo.local=$tmp/repo -Dx=y" scripts/deps.sh maven-repo)" "$tmp/repo"

# apt's sources limited to the machine's architecture before arm64 is added (scripts/deps.sh qemu on
# Ubuntu, whose runners carry sources that serve no arm64): every source that names none gets the
# native one, in both formats; one that names its own keeps them.
apt=$tmp/apt
mkdir -p "$apt/sources.list.d"
cat >"$apt/sources.list" <<'EOF'
# deb http://archive.ubuntu.com/ubuntu noble main
deb http://archive.ubuntu.com/ubuntu noble main universe
deb-src http://archive.ubuntu.com/ubuntu noble main
deb [signed-by=/usr/share/keyrings/microsoft.gpg] https://packages.microsoft.com/ubuntu/24.04/prod noble main
deb [arch=amd64,arm64] https://example.org/apt noble main
EOF
cat >"$apt/sources.list.d/ubuntu.sources" <<'EOF'
Types: deb
URIs: http://archive.ubuntu.com/ubuntu/
Suites: noble noble-updates
Components: main universe
Signed-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg

Types: deb
URIs: http://ports.ubuntu.com/ubuntu-ports
Suites: noble
Components: main
Architectures: arm64
EOF
echo 'deb https://packages.microsoft.com/repos/azure-cli/ noble main' >"$apt/sources.list.d/azure-cli.list"
APT_ETC=$apt NATIVE_ARCH=amd64 SUDO='' scripts/deps.sh apt-sources-native-only
check "one-line sources name the native architecture" "$(cat "$apt/sources.list" "$apt/sources.list.d/azure-cli.list")" \
	"# deb http://archive.ubuntu.com/ubuntu noble main
deb [arch=amd64] http://archive.ubuntu.com/ubuntu noble main universe
deb-src [arch=amd64] http://archive.ubuntu.com/ubuntu noble main
deb [arch=amd64 signed-by=/usr/share/keyrings/microsoft.gpg] https://packages.microsoft.com/ubuntu/24.04/prod noble main
deb [arch=amd64,arm64] https://example.org/apt noble main
deb [arch=amd64] https://packages.microsoft.com/repos/azure-cli/ noble main"
check "deb822 stanzas without Architectures get the native one" "$(cat "$apt/sources.list.d/ubuntu.sources")" \
	"Types: deb
Architectures: amd64
URIs: http://archive.ubuntu.com/ubuntu/
Suites: noble noble-updates
Components: main universe
Signed-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg

Types: deb
URIs: http://ports.ubuntu.com/ubuntu-ports
Suites: noble
Components: main
Architectures: arm64"
before=$(cat "$apt/sources.list" "$apt/sources.list.d/"*)
APT_ETC=$apt NATIVE_ARCH=amd64 SUDO='' scripts/deps.sh apt-sources-native-only
check "a second run changes nothing" "$(cat "$apt/sources.list" "$apt/sources.list.d/"*)" "$before"

# make serve, demo and replay-transcripts build and run the CLI: they fetch Go's modules and build no
# linter (staticcheck, actionlint, gobind are for make lint and the Android build).
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho "$*" >> "%s/go.log"\n' "$tmp" >"$tmp/bin/go"
chmod +x "$tmp/bin/go"
PATH="$tmp/bin:$PATH" scripts/deps.sh go-modules >/dev/null
check "deps.sh go-modules runs only go mod download" "$(cat "$tmp/go.log")" "mod download"
# Its binary names the commit ('mobilemcp version') even where Go's own stamping is off (GOFLAGS=-buildvcs=false).
# shellcheck disable=SC2016 # the recipe's own $(...), matched as written
check "make serve stamps the build id" "$(make -n serve | grep -c -F 'buildinfo.id=$(scripts/build-id.sh)')" "1"
for target in serve demo replay-transcripts; do
	check "make $target fetches only the modules" \
		"$(make -n "$target" | grep -c -e 'deps.sh go$' -e 'deps.sh all' -e staticcheck -e actionlint -e gobind)" "0"
done

if [ "$failures" = 0 ]; then
	echo "deps_test: $cases cases passed"
else
	echo "deps_test: $failures of $cases cases failed"
	exit 1
fi

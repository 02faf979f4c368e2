#!/usr/bin/env bash
# Tests of scripts/deps.sh: what make serve fetches, and its view of the local Maven repository, which decides where the stamp of a
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

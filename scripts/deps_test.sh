#!/usr/bin/env bash
# Tests of scripts/deps.sh's view of the local Maven repository, which decides where the stamp of a
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

if [ "$failures" = 0 ]; then
	echo "deps_test: $cases cases passed"
else
	echo "deps_test: $failures of $cases cases failed"
	exit 1
fi

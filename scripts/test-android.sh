#!/usr/bin/env bash
# The Android modules' tests on the host (docs/internals/host-harness.md): host-engine.sh tests builds gobind's Java and a
# host engine library from ./intentbridge, then the Maven reactor in android/ compiles every module
# against android-all, compiles the resources with aapt, and runs each module's Robolectric tests
# against the real Go engine.
# Offline: scripts/deps.sh maven (run first by this script, and by make deps) fills the Maven repository.
# Without arguments it also checks the libraries' public API against their listings
# (scripts/api-listing.sh). Extra arguments go to mvn, for example -pl app -Dtest=SendSmsTest: the modules a selected one needs
# are built too (-am), and a module with no matching test passes; a run of no test at all fails.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh maven
scripts/host-engine.sh tests
rm -rf android/*/target/surefire-reports
status=0
mvn -B -q -o -f android/pom.xml test -am -Dsurefire.failIfNoSpecifiedTests=false "$@" || status=$?

# Maven -q prints nothing on success; say how many tests ran, over all modules.
shopt -s nullglob
reports=(android/*/target/surefire-reports/*.txt)
summary=$(awk -F'[:,] *' '
	/^Tests run:/ { run += $2; failed += $4; errors += $6; skipped += $8 }
	END { printf "test-android: %d Robolectric tests, %d failures, %d errors, %d skipped\n", run, failed, errors, skipped }' "${reports[@]}" /dev/null)
echo "$summary"
if [ "$status" = 0 ] && [[ $summary == "test-android: 0 "* ]]; then
	echo "test-android: no test ran; check the -Dtest pattern" >&2
	status=1
fi
# The whole suite compiled every library: their public API must be the one listed (api.txt).
if [ "$status" = 0 ] && [ $# = 0 ]; then
	scripts/api-listing.sh || status=1
fi
exit $status

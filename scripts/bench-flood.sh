#!/usr/bin/env bash
# bench-flood.sh: how long an allowed assistant waits for a call while other apps flood the tool
# (android/sdk-tests FloodBenchmark), in Robolectric against the real tool service and engine. It
# prints the median, p90 and maximum wait of each scenario. A benchmark, not a test: it never fails
# on a timing.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh maven
scripts/host-engine.sh tests >/dev/null
rm -f android/sdk-tests/target/flood-benchmark.txt
mvn -B -q -o -f android/pom.xml test -pl sdk-tests -am -Dsurefire.failIfNoSpecifiedTests=false \
	-Dtest=FloodBenchmark -Drobolectric.sdks=34
cat android/sdk-tests/target/flood-benchmark.txt

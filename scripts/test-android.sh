#!/usr/bin/env bash
# The Android layer's tests on the host (docs/android.md): build-jni.sh builds gobind's Java and a
# host libgojni.so from ./intentbridge, then Maven compiles the app against android-all, compiles
# the resources with aapt, and runs the Robolectric tests in android/app/src/test against the real Go engine.
# Offline: scripts/deps.sh maven (run here, and by make deps) fills the Maven repository first.
# Extra arguments go to mvn, for example -Dtest=SendSmsTest.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/deps.sh maven
scripts/build-jni.sh
rm -rf android/app/target/surefire-reports
status=0
mvn -B -q -o -f android/app/pom.xml test "$@" || status=$?

# Maven -q prints nothing on success; say how many tests ran.
cat android/app/target/surefire-reports/*.txt 2>/dev/null | awk -F'[:,] *' '
	/^Tests run:/ { run += $2; failed += $4; errors += $6; skipped += $8 }
	END { printf "test-android: %d Robolectric tests, %d failures, %d errors, %d skipped\n", run, failed, errors, skipped }'
exit $status

#!/usr/bin/env bash
# bench-android.sh [CALLS]: times Bridge.handle(get_sms_subscriptions), Java -> Go -> Java, through
# the host-built libgojni.so on a plain JVM, and prints the median and p99 (default 20,000 calls).
# A benchmark, not a test: it never fails on a timing.
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-20000}

scripts/deps.sh maven
scripts/build-jni.sh >/dev/null
# Compile the sdk (gobind's Java), the app and the benchmark (android/app/src/bench/java), and list
# the one jar the benchmark needs besides them: android-all, for the android.* names gobind's Java
# refers to.
mvn -B -q -o -f android/pom.xml -pl app -am test-compile dependency:build-classpath \
	-Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeArtifactIds=android-all
java -Djava.library.path=build/jni \
	-cp "android/sdk/target/classes:android/app/target/test-classes:$(cat android/app/target/bench-classpath.txt)" \
	io.github.mobilemcp.app.HandleBenchmark "$calls"

#!/usr/bin/env bash
# bench-android.sh [CALLS]: times Bridge.handle, Java -> Go -> Java, through the host-built libmobilemcp.so
# on a plain JVM, for two requests: get_sms_subscriptions (Go's SMS capability, a Java stub platform)
# and a sample Java handler behind the SDK's adapter (list_notes). It prints the median, p99 and
# p99.9 of each (default 20,000 calls). Then a typed @McpTool handler beside the same handler on the
# string API, taking turns (TypedBenchmark, android/sdk-ktx/src/bench): the median and p99 of each and
# the typed/string ratio. A benchmark, not a test: it never fails on a timing.
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-20000}

scripts/deps.sh maven
scripts/host-engine.sh tests >/dev/null
# Compile gobind's Java (android/intentbridge), the sdk and the benchmark (android/sdk/src/bench/java),
# and list the one jar the benchmark needs besides them: android-all, for the android.* names they
# refer to, and org.json. sdk-ktx's test compile runs sdk-ksp on its benchmark (src/bench/kotlin).
mvn -B -q -o -f android/pom.xml -pl sdk,sdk-ktx -am test-compile dependency:build-classpath \
	-Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeArtifactIds=android-all
java -Djava.library.path=build/jni \
	-cp "android/sdk/target/classes:android/sdk/target/test-classes:android/intentbridge/target/classes:$(cat android/sdk/target/bench-classpath.txt)" \
	io.github.mobilemcp.sdk.HandleBenchmark "$calls" android/app/res/xml/mcp_capabilities.xml
java -Djava.library.path=build/jni \
	-cp "android/sdk-ktx/target/classes:android/sdk-ktx/target/test-classes:android/sdk/target/classes:android/intentbridge/target/classes:$(cat android/sdk-ktx/target/bench-classpath.txt)" \
	io.github.mobilemcp.sdk.TypedBenchmark "$calls" android/sdk-ktx/src/bench/res/xml/mcp_capabilities.xml

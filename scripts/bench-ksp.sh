#!/usr/bin/env bash
# bench-ksp.sh [ROUNDS]: what typed tools (@McpTool, sdk-ktx and sdk-ksp) cost a tool app's build and
# its bytes. A benchmark, not a test: it prints figures and never fails on one.
#
#   build time   writes a 50-capability descriptor and the 50 typed handlers that match it (10
#                classes of 5, each handler with 3 inputs and a result class of 2 outputs) into a
#                temporary directory, and times, in fresh JVMs, the rounds (default 3) taking turns:
#                  before  kotlinc over the handlers, the build without the processor;
#                  KSP     KSP2's command line (KSPJvmMain) with sdk-ksp over them, and finding no
#                          processor (KSP's start, which an app already on KSP pays anyway);
#                  after   KSP with sdk-ksp, then kotlinc over the handlers and the registration
#                          it generated: the build of a tool with typed handlers;
#                  string  kotlinc over the same 50 handlers written on the string API.
#                It prints the median wall and CPU time of each step (milliseconds), and each
#                round's after/before ratio: on a loaded machine the ratios hold better.
#   bytes        the .class files of sdk-ktx that typed tools use at run time; the generated
#                registration's classes for the 50 handlers, per handler, for the notes tool's 3
#                (android/notes) and for TypedBenchmark's handler beside its string-API twin
#                (android/sdk-ktx/src/bench). The sizes are of class files, before R8 or D8.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
rounds=${1:-3}

scripts/deps.sh maven >/dev/null
scripts/host-engine.sh tests >/dev/null
# sdk-ktx and its processor; notes and sdk-ktx's bench sources run sdk-ksp as they compile.
mvn -B -q -o -f android/pom.xml -pl sdk-ktx,notes -am test-compile dependency:build-classpath \
	-Dmdep.outputFile=target/bench-ksp-classpath.txt

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Entries of a classpath file whose path matches the extended regular expression $2.
pick() { tr ':' '\n' <"$1" | grep -E "$2" | paste -sd: -; }
ktx_cp=android/sdk-ktx/target/bench-ksp-classpath.txt
# What the handlers compile against, as in an app: android.jar (here android-all), the sdk, sdk-ktx,
# Kotlin's standard library and coroutines.
libs="$ROOT/android/sdk-ktx/target/classes:$(pick "$ktx_cp" '/(sdk|protocol)/target/classes$|/(android-all|kotlin-stdlib|kotlinx-coroutines-core-jvm|jspecify)-[^/]*\.jar$')"
# The processor and its own dependencies (as android/pom.xml's ksp-processor step lists them).
processor="$(pick "$ktx_cp" '/sdk-ksp/target/classes$|/(kotlinpoet-jvm|kotlinpoet-ksp|kotlin-reflect|re2j)-[^/]*\.jar$')"
ksp_tool=$(printf '%s:' "$ROOT"/android/sdk-ktx/target/ksp-tool/*.jar)
# kotlinc: the compiler Maven's Kotlin plugin runs, on its own runtime classpath.
kotlin=$(sed -n 's:.*<kotlin.version>\(.*\)</kotlin.version>.*:\1:p' android/pom.xml | head -1)
mkdir -p "$tmp/kotlinc"
cat >"$tmp/kotlinc/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>bench</groupId><artifactId>kotlinc</artifactId><version>0</version>
  <dependencies>
    <dependency><groupId>org.jetbrains.kotlin</groupId><artifactId>kotlin-compiler-embeddable</artifactId><version>$kotlin</version></dependency>
  </dependencies>
  <build><plugins><plugin>
    <groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>3.8.1</version>
  </plugin></plugins></build>
</project>
EOF
mvn -B -q -o -f "$tmp/kotlinc/pom.xml" dependency:build-classpath -Dmdep.outputFile="$tmp/kotlinc/classpath.txt"
kotlinc_cp=$(cat "$tmp/kotlinc/classpath.txt")

# The 50 capabilities and their handlers.
src=$tmp/src
mkdir -p "$src/bench/tools" "$tmp/empty"
{
	echo '<?xml version="1.0" encoding="utf-8"?>'
	echo '<mobile-mcp-capabilities xmlns:mcp="https://mobilemcp.github.io/ns" version="1.0">'
	for i in $(seq -w 1 50); do
		cat <<EOF
  <capability id="op_$i" description="Operation $i of the benchmark." version="1.0"
      mcp:title="Operation $i" mcp:readOnly="true" mcp:destructive="false" mcp:idempotent="true" mcp:openWorld="false">
    <input>
      <param name="name" type="string" required="true" description="A name." mcp:maxLength="100"/>
      <param name="count" type="integer" required="false" description="How many times."/>
      <param name="enabled" type="boolean" required="false" description="Whether it is on."/>
    </input>
    <output>
      <param name="total" type="integer" description="The total."/>
      <param name="label" type="string" description="The label."/>
    </output>
  </capability>
EOF
	done
	echo '</mobile-mcp-capabilities>'
} >"$tmp/mcp_capabilities.xml"
for k in $(seq -w 1 10); do
	{
		printf 'package bench.tools\n\nimport io.github.mobilemcp.sdk.ktx.McpResult\nimport io.github.mobilemcp.sdk.ktx.McpTool\n\nclass Tools%s {\n' "$k"
		for j in 1 2 3 4 5; do
			i=$(printf '%02d' $(((10#$k - 1) * 5 + j)))
			printf '    @McpTool("op_%s")\n' "$i"
			printf '    fun op%s(name: String, count: Long?, enabled: Boolean?): Result%s =\n' "$i" "$i"
			printf '        Result%s((count ?: 1) * name.length, if (enabled == true) name.uppercase() else name)\n\n' "$i"
		done
		echo '}'
		for j in 1 2 3 4 5; do
			i=$(printf '%02d' $(((10#$k - 1) * 5 + j)))
			printf '\ndata class Result%s(val total: Long, val label: String) : McpResult {\n' "$i"
			# shellcheck disable=SC2016 # $label is Kotlin's
			printf '    override val message get() = "op_%s: $label"\n}\n' "$i"
		done
	} >"$src/bench/tools/Tools$k.kt"
done

jdk_home=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')
# The same 50 handlers on the string API, as a developer writes them without typed tools.
mkdir -p "$tmp/string/bench/tools"
for k in $(seq -w 1 10); do
	{
		printf 'package bench.tools\n\nimport io.github.mobilemcp.sdk.ToolHandlers\nimport io.github.mobilemcp.sdk.ToolResult\n\n'
		printf 'fun ToolHandlers.registerTools%s(): ToolHandlers {\n' "$k"
		for j in 1 2 3 4 5; do
			i=$(printf '%02d' $(((10#$k - 1) * 5 + j)))
			printf '    on("op_%s") { call ->\n' "$i"
			printf '        val name = call.getString("name")\n'
			printf '        val label = if (call.getBoolean("enabled", false)) name.uppercase() else name\n'
			# shellcheck disable=SC2016 # $label is Kotlin's
			printf '        ToolResult.success("op_%s: $label")\n' "$i"
			printf '            .put("total", call.getLong("count", 1) * name.length)\n            .put("label", label)\n    }\n'
		done
		printf '    return this\n}\n'
	} >"$tmp/string/bench/tools/StringTools$k.kt"
done

# ksp OUT PROCESSOR_PATH: KSP2's command line over the handlers, as android/notes/pom.xml runs it.
ksp() {
	rm -rf "$1"
	java -cp "$ksp_tool" com.google.devtools.ksp.cmdline.KSPJvmMain \
		-jvm-target=17 -module-name=bench -source-roots="$src" -project-base-dir="$tmp" \
		-output-base-dir="$1" -caches-dir="$1/caches" -class-output-dir="$1/classes" \
		-kotlin-output-dir="$1/kotlin" -java-output-dir="$1/java" -resource-output-dir="$1/resources" \
		-language-version=2.2 -api-version=2.2 -incremental=false -jdk-home="$jdk_home" \
		-libraries="$libs" -processor-options=mobilemcp.descriptor="$tmp/mcp_capabilities.xml" "$2"
}
# kotlinc OUT SOURCE_ROOT...: the Kotlin compile of a module without a daemon.
kotlinc() {
	local out=$1
	shift
	rm -rf "$out"
	java -cp "$kotlinc_cp" org.jetbrains.kotlin.cli.jvm.K2JVMCompiler -no-stdlib -no-reflect \
		-jvm-target 17 -classpath "$libs" -d "$out" "$@"
}
# timed LOG COMMAND...: runs COMMAND, its output to LOG, and prints its wall time and its CPU time
# (user and system, every thread), in milliseconds.
timed() {
	local log=$1 t
	shift
	t=$({
		TIMEFORMAT='%R %U %S'
		time "$@" >"$log" 2>&1
	} 2>&1) || { cat "$log" >&2; echo "bench-ksp: $* failed" >&2; exit 1; }
	awk '{printf "%d %d\n", $1 * 1000, ($2 + $3) * 1000}' <<<"$t"
}
# median NUMBERS... and range NUMBERS...: of numbers given apart or in words of one argument.
median() { tr ' ' '\n' <<<"$*" | grep . | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }
range() { tr ' ' '\n' <<<"$*" | grep . | sort -g | sed -n '1p;$p' | paste -sd' ' - | sed 's/ / to /'; }

# Each round's four runs, in turns; wall and CPU of each.
declare -A wall cpu
steps="before bare typed after string"
for r in $(seq 1 "$rounds"); do
	order=$steps
	((r % 2)) || order="string typed after bare before"
	for step in $order; do
		case $step in
		before) read -r w c < <(timed "$tmp/$step.log" kotlinc "$tmp/before" "$src") ;;
		bare) read -r w c < <(timed "$tmp/$step.log" ksp "$tmp/ksp-bare" "$tmp/empty") ;;
		typed) read -r w c < <(timed "$tmp/$step.log" ksp "$tmp/ksp" "$processor") ;;
		after) read -r w c < <(timed "$tmp/$step.log" kotlinc "$tmp/after" "$src" "$tmp/ksp/kotlin") ;;
		string) read -r w c < <(timed "$tmp/$step.log" kotlinc "$tmp/string-classes" "$tmp/string") ;;
		esac
		wall[$step]+="$w " cpu[$step]+="$c "
	done
done
# The registrations, not the records of the handlers each class holds (io.github.mobilemcp.generated).
generated=$(find "$tmp/ksp/kotlin" -name '*Handlers.kt' -not -path '*/io/github/mobilemcp/generated/*' | wc -l)
[ "$generated" = 10 ] || { echo "bench-ksp: sdk-ksp generated $generated registrations, not 10" >&2; exit 1; }

echo "bench-ksp: the build of 50 typed handlers (10 classes), each step in a fresh JVM, $rounds rounds taking turns"
printf '  %-44s %8s %8s\n' "median, ms" wall CPU \
	"before: kotlinc" "$(median "${wall[before]}")" "$(median "${cpu[before]}")" \
	"KSP finding no processor" "$(median "${wall[bare]}")" "$(median "${cpu[bare]}")" \
	"KSP with sdk-ksp" "$(median "${wall[typed]}")" "$(median "${cpu[typed]}")" \
	"kotlinc with the generated registration" "$(median "${wall[after]}")" "$(median "${cpu[after]}")" \
	"kotlinc, the same handlers on the string API" "$(median "${wall[string]}")" "$(median "${cpu[string]}")"
# after_before WHAT KIND B K A: each round's (KSP + kotlinc after) / B.
after_before() {
	local b k a i ratios=()
	read -ra b <<<"$3"
	read -ra k <<<"$4"
	read -ra a <<<"$5"
	for i in "${!b[@]}"; do
		ratios+=("$(awk -v x=$((k[i] + a[i])) -v y="${b[i]}" 'BEGIN {printf "%.2f", x / y}')")
	done
	echo "  after/$1, $2: median $(median "${ratios[@]}") of the rounds', $(range "${ratios[@]}") (ms $1: $3)"
}
echo "  each round, ms: KSP with sdk-ksp ${wall[typed]}; kotlinc after ${wall[after]}"
after_before before wall "${wall[before]}" "${wall[typed]}" "${wall[after]}"
after_before before CPU "${cpu[before]}" "${cpu[typed]}" "${cpu[after]}"
after_before string-API wall "${wall[string]}" "${wall[typed]}" "${wall[after]}"
after_before string-API CPU "${cpu[string]}" "${cpu[typed]}" "${cpu[after]}"

# bytes FILE...: the total size of the files.
bytes() { if [ $# -gt 0 ]; then stat -c %s "$@" | awk '{s += $1} END {print s}'; else echo 0; fi; }
echo "bench-ksp: bytes of class files (before R8/D8)"
echo "  sdk-ktx, what typed tools use at run time:"
for c in McpTool McpParam McpResult ListArguments 'SuspendHandlers*'; do
	# shellcheck disable=SC2206 # the glob is meant
	files=(android/sdk-ktx/target/classes/io/github/mobilemcp/sdk/ktx/$c.class)
	printf '    %-22s %6d\n' "$c" "$(bytes "${files[@]}")"
done
mapfile -t gen < <(find "$tmp/after" -name '*HandlersKt*.class')
total=$(bytes "${gen[@]}")
echo "  generated registration, 50 handlers:   $total in ${#gen[@]} classes, $((total / 50)) a handler"
mapfile -t records < <(find "$tmp/after" -path '*/io/github/mobilemcp/generated/*' -name '*.class')
echo "  records of the handlers (for the module that owns the descriptor): $(bytes "${records[@]}") in ${#records[@]} classes"
mapfile -t results < <(find "$tmp/after" -name 'Result*.class')
echo "  their 50 result classes (written by hand): $(bytes "${results[@]}"), $(($(bytes "${results[@]}") / 50)) each"
mapfile -t notes < <(find android/notes/target -path '*classes*' -name 'NotesToolsHandlersKt*.class')
if [ ${#notes[@]} -gt 0 ]; then
	echo "  generated registration, notes' 3 handlers: $(bytes "${notes[@]}") in ${#notes[@]} classes"
else
	echo "  notes' generated registration: not found under android/notes/target"
fi
bench=android/sdk-ktx/target/test-classes/io/github/mobilemcp/sdk/bench
echo "  preview_note (TypedBenchmark): generated registration $(bytes "$bench/PreviewToolsHandlersKt.class")," \
	"its result class $(bytes "$bench/Preview.class"); the string API's registration $(bytes "$bench/PreviewToolsKt.class")"

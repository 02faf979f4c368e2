#!/usr/bin/env bash
# Tests of scripts/api-listing.sh on classes made for the purpose: javac (and, for the Kotlin modules,
# the Kotlin compiler of android/pom.xml's kotlin.version) compiles a few small classes per library
# into a scratch copy of the repository (android/MODULE/target/classes, where the script reads them),
# and the listings it writes are compared with what they must say. Stand-ins for JSpecify's
# annotations keep it offline; the Kotlin compiler and the harness's KotlinApiListing come from the
# Maven repository that scripts/deps.sh maven fills. API_LISTING=FILE tests another copy of the script.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
script=${API_LISTING:-scripts/api-listing.sh}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cases=0
failed=()

# fail NAME DETAIL: a case that failed, reported at the end with what it saw.
fail() { failed+=("$1"$'\n'"$(sed 's/^/  | /' <<<"$2")"); }

# same NAME FILE WANT: FILE holds exactly WANT.
same() {
	local diff
	cases=$((cases + 1))
	diff=$(diff -u <(printf '%s\n' "$3") "$2" 2>&1) || fail "$1" "$diff"
}

# listing NAME WANT_STATUS [--update] -- SUBSTRING...: runs the copy of the script, which must exit
# with WANT_STATUS and print every SUBSTRING.
listing() {
	local name=$1 want=$2 args=() out status s
	shift 2
	while [ "$1" != -- ]; do args+=("$1"); shift; done
	shift
	cases=$((cases + 1))
	out=$("$repo/scripts/api-listing.sh" "${args[@]}" 2>&1)
	status=$?
	if [ "$status" != "$want" ]; then
		fail "$name: exit $status, want $want" "$out"
		return
	fi
	for s in "$@"; do
		grep -qF -- "$s" <<<"$out" || { fail "$name: no \"$s\" in the output" "$out"; return; }
	done
}

repo=$tmp/repo
mkdir -p "$repo/scripts" "$tmp/stubs/src"
cp "$script" "$repo/scripts/api-listing.sh"
chmod +x "$repo/scripts/api-listing.sh"

# write FILE: stdin into FILE under $tmp, making its directory.
write() {
	mkdir -p "$(dirname "$tmp/$1")"
	cat >"$tmp/$1"
}

# JSpecify's annotations as the libraries use them: what javap prints is their names.
write stubs/src/org/jspecify/annotations/NullMarked.java <<'EOF'
package org.jspecify.annotations;
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
public @interface NullMarked {}
EOF
write stubs/src/org/jspecify/annotations/Nullable.java <<'EOF'
package org.jspecify.annotations;
@java.lang.annotation.Target(java.lang.annotation.ElementType.TYPE_USE)
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.RUNTIME)
public @interface Nullable {}
EOF
# shellcheck disable=SC2046 # one argument per file
javac -d "$tmp/stubs/classes" $(find "$tmp/stubs/src" -name '*.java') || { echo "api-listing_test: javac failed"; exit 1; }

# The harness's KotlinApiListing, which the script runs from android/harness/target (the Android
# tests build it; so does this, offline, when it is missing).
if [ ! -f android/harness/target/api-listing.classpath ] &&
	! mvn -B -q -o -f android/pom.xml -pl harness process-classes >"$tmp/harness.log" 2>&1; then
	cat "$tmp/harness.log"
	echo "api-listing_test: cannot build android/harness offline; run scripts/deps.sh maven"
	exit 1
fi
mkdir -p "$repo/android/harness/target"
cp -R android/harness/target/classes android/harness/target/api-listing.classpath "$repo/android/harness/target/"

# The Kotlin compiler the modules build with (kotlin-maven-plugin's, kotlin-compiler-embeddable),
# run from the classpath Maven resolves for it offline.
kotlin_version=$(sed -n 's:.*<kotlin.version>\(.*\)</kotlin.version>.*:\1:p' android/pom.xml)
dependency_plugin=$(sed -n '/<artifactId>maven-dependency-plugin<\/artifactId>/{n;s:.*<version>\(.*\)</version>.*:\1:p;}' android/pom.xml | head -n 1)
write kotlinc/pom.xml <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>test</groupId>
  <artifactId>kotlinc</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>org.jetbrains.kotlin</groupId>
      <artifactId>kotlin-compiler-embeddable</artifactId>
      <version>$kotlin_version</version>
    </dependency>
  </dependencies>
</project>
EOF
if ! mvn -B -q -o -f "$tmp/kotlinc/pom.xml" "org.apache.maven.plugins:maven-dependency-plugin:$dependency_plugin:build-classpath" \
	-Dmdep.outputFile="$tmp/kotlinc.classpath" >"$tmp/kotlinc.log" 2>&1; then
	cat "$tmp/kotlinc.log"
	echo "api-listing_test: no Kotlin compiler $kotlin_version in the Maven repository; run scripts/deps.sh maven"
	exit 1
fi
kotlin_stdlib=$(tr : '\n' <"$tmp/kotlinc.classpath" | grep -E "/kotlin-stdlib-$kotlin_version\.jar$")

# compile MODULE: the Java, or the Kotlin, under $tmp/src/MODULE into the module's classes.
compile() {
	local classes=$repo/android/$1/target/classes kotlin
	rm -rf "$classes"
	mkdir -p "$classes"
	kotlin=$(find "$tmp/src/$1" -name '*.kt')
	if [ -n "$kotlin" ]; then
		# shellcheck disable=SC2086 # one argument per file
		java -cp "$(cat "$tmp/kotlinc.classpath")" org.jetbrains.kotlin.cli.jvm.K2JVMCompiler -nowarn -no-stdlib -no-reflect \
			-jvm-target 11 -classpath "$kotlin_stdlib" -d "$classes" $kotlin ||
			{ echo "api-listing_test: the Kotlin compiler failed on $1"; exit 1; }
		return
	fi
	# shellcheck disable=SC2046 # one argument per file
	javac -d "$classes" -cp "$tmp/stubs/classes" $(find "$tmp/src/$1" -name '*.java') ||
		{ echo "api-listing_test: javac failed on $1"; exit 1; }
}

# has NAME FILE LINE: FILE has the line LINE.
has() {
	cases=$((cases + 1))
	grep -qxF -- "$3" "$2" || fail "$1: no line \"$3\"" "$(cat "$2")"
}

# The sdk: a null-marked package with a @Nullable, a nested class, R (not listed), and an internal
# package whose classes go to the restricted listing.
write src/sdk/io/github/mobilemcp/sdk/package-info.java <<'EOF'
@org.jspecify.annotations.NullMarked
package io.github.mobilemcp.sdk;
EOF
write src/sdk/io/github/mobilemcp/sdk/Greeter.java <<'EOF'
package io.github.mobilemcp.sdk;
import org.jspecify.annotations.Nullable;
public final class Greeter {
    public String greet(String name) { return "Hello " + name; }
    public @Nullable String nickname(@Nullable String name) { return name; }
    public static final class Style { public int size() { return 1; } }
}
EOF
# A class to subclass: its protected members are API, unlike a final class's.
write src/sdk/io/github/mobilemcp/sdk/Service.java <<'EOF'
package io.github.mobilemcp.sdk;
public abstract class Service {
    protected abstract void registerHandlers(Greeter greeter);
    protected void onCreate() {}
    void packagePrivate() {}
    private void hidden() {}
}
EOF
write src/sdk/io/github/mobilemcp/sdk/Screen.java <<'EOF'
package io.github.mobilemcp.sdk;
public final class Screen extends Service {
    @Override protected void registerHandlers(Greeter greeter) {}
    @Override protected void onCreate() {}
    public void show() {}
}
EOF
write src/sdk/io/github/mobilemcp/sdk/R.java <<'EOF'
package io.github.mobilemcp.sdk;
public final class R { public static final class string { public static final int hello = 1; } }
EOF
write src/sdk/io/github/mobilemcp/sdk/internal/InternalApi.java <<'EOF'
package io.github.mobilemcp.sdk.internal;
@InternalApi
@java.lang.annotation.Retention(java.lang.annotation.RetentionPolicy.CLASS)
public @interface InternalApi {}
EOF
write src/sdk/io/github/mobilemcp/sdk/internal/package-info.java <<'EOF'
@InternalApi
@org.jspecify.annotations.NullMarked
package io.github.mobilemcp.sdk.internal;
EOF
write src/sdk/io/github/mobilemcp/sdk/internal/Seam.java <<'EOF'
package io.github.mobilemcp.sdk.internal;
@InternalApi
public final class Seam {
    public static String engine() { return "engine"; }
}
EOF
write src/sdk/io/github/mobilemcp/sdk/internal/Unmarked.java <<'EOF'
package io.github.mobilemcp.sdk.internal;
public final class Unmarked {
    public void run() {}
}
EOF
# The other libraries: packages in which nothing is @Nullable, the listing's old blind spot.
write src/client/io/github/mobilemcp/client/Caller.java <<'EOF'
package io.github.mobilemcp.client;
public final class Caller {
    public String call(String capability) { return capability; }
}
EOF
write src/sdk-testing/io/github/mobilemcp/sdk/testing/Rule.java <<'EOF'
package io.github.mobilemcp.sdk.testing;
public final class Rule {
    public static String onSuspend(String id) { return id; }
}
EOF
# The Kotlin modules: what a Kotlin caller sees and the JVM signature hides (javap prints send as
# "Object send(String, long, Continuation)" with a @Nullable return).
write src/client-ktx/io/github/mobilemcp/client/ktx/Caller.kt <<'EOF'
package io.github.mobilemcp.client.ktx

import kotlin.time.Duration

/** An opt-in marker, as io.github.mobilemcp.client.ProviderFormatApi. */
@RequiresOptIn
@Retention(AnnotationRetention.BINARY)
annotation class Preview

/** An annotation that is not an opt-in marker: no API of what it marks. */
@Retention(AnnotationRetention.BINARY)
annotation class Plain

class Caller(val name: String) {
    @JvmName("send") suspend fun send(request: String, timeout: Duration = Duration.ZERO): String = request + timeout
    suspend fun find(name: String): String? = name.takeIf { it.isNotEmpty() }
    @Preview fun preview(): Int = 1
    @Plain fun plain() {}
    @JvmName("shoutAll") fun shout(vararg words: String): String = words.joinToString()
    internal fun hidden() {}
}

val String.shout: String get() = uppercase()
EOF
write src/sdk-ktx/io/github/mobilemcp/sdk/ktx/Handlers.kt <<'EOF'
@file:JvmName("SuspendHandlers")
package io.github.mobilemcp.sdk.ktx

fun <T : CharSequence> T.onSuspend(id: String, handler: suspend (T) -> Int?): T = this
EOF
# The protocol vocabulary: a class at the root package, io.github.mobilemcp.
write src/protocol/io/github/mobilemcp/Word.java <<'EOF'
package io.github.mobilemcp;

public enum Word { YES, NO }
EOF
# The MCP transport for assistants, in Kotlin.
write src/client-mcp/io/github/mobilemcp/client/mcp/Transport.kt <<'EOF'
package io.github.mobilemcp.client.mcp

class Transport(val name: String)
EOF
for m in protocol sdk client client-ktx client-mcp sdk-testing sdk-ktx; do
	compile "$m"
done

# --- --update writes every listing.
listing "--update writes the listings" 0 --update -- "wrote android/protocol/api.txt" "wrote android/client/api.txt" "wrote android/sdk-ktx/api.txt"

same "a package without a @Nullable lists its members (android/client/api.txt)" "$repo/android/client/api.txt" \
	'package io.github.mobilemcp.client
public final class io.github.mobilemcp.client.Caller {
  public io.github.mobilemcp.client.Caller();
  public java.lang.String call(java.lang.String);
}'
same "a Kotlin file lists its declarations as Kotlin (android/sdk-ktx/api.txt)" "$repo/android/sdk-ktx/api.txt" \
	'Kotlin package io.github.mobilemcp.sdk.ktx (Kotlin declarations: a type is not null unless it ends in ?)
file io.github.mobilemcp.sdk.ktx.SuspendHandlers {
  public fun <T : kotlin.CharSequence> T.onSuspend(id: kotlin.String, handler: suspend (T) -> kotlin.Int?): T
}'
ktx=$repo/android/client-ktx/api.txt
has "a suspend fun lists as suspend fun, its return not null" "$ktx" \
	'  public suspend fun send(request: kotlin.String, timeout: kotlin.time.Duration = ...): kotlin.String'
has "a Duration parameter lists as kotlin.time.Duration" "$ktx" \
	'  public suspend fun send(request: kotlin.String, timeout: kotlin.time.Duration = ...): kotlin.String'
has "a nullable return lists as T?" "$ktx" \
	'  public suspend fun find(name: kotlin.String): kotlin.String?'
has "an extension property lists with its receiver" "$ktx" \
	'  public val kotlin.String.shout: kotlin.String'
has "an opt-in marker lists on what it marks" "$ktx" \
	'  @io.github.mobilemcp.client.ktx.Preview public fun preview(): kotlin.Int'
has "an annotation that is no opt-in marker does not list" "$ktx" \
	'  public fun plain()'
has "a JVM name that is not the Kotlin name lists after the declaration" "$ktx" \
	'  public fun shout(vararg words: kotlin.String): kotlin.String  // JVM name: shoutAll'
same "the Kotlin listing of android/client-ktx" "$ktx" \
	'Kotlin package io.github.mobilemcp.client.ktx (Kotlin declarations: a type is not null unless it ends in ?)
public class io.github.mobilemcp.client.ktx.Caller {
  public constructor(name: kotlin.String)
  public val name: kotlin.String
  public suspend fun send(request: kotlin.String, timeout: kotlin.time.Duration = ...): kotlin.String
  public suspend fun find(name: kotlin.String): kotlin.String?
  @io.github.mobilemcp.client.ktx.Preview public fun preview(): kotlin.Int
  public fun plain()
  public fun shout(vararg words: kotlin.String): kotlin.String  // JVM name: shoutAll
}
file io.github.mobilemcp.client.ktx.CallerKt {
  public val kotlin.String.shout: kotlin.String
}
public annotation class io.github.mobilemcp.client.ktx.Plain {
  public constructor()
}
public annotation class io.github.mobilemcp.client.ktx.Preview {
  public constructor()
}'
# shellcheck disable=SC2016 # Greeter$Style is a class name
same "the sdk's API: its nullness, without R or the internal package" "$repo/android/sdk/api.txt" \
	'@NullMarked package io.github.mobilemcp.sdk
public final class io.github.mobilemcp.sdk.Greeter {
  public io.github.mobilemcp.sdk.Greeter();
  public java.lang.String greet(java.lang.String);
  public java.lang.String nickname(java.lang.String);  // @Nullable: parameter 1, return
}
public final class io.github.mobilemcp.sdk.Greeter$Style {
  public io.github.mobilemcp.sdk.Greeter$Style();
  public int size();
}
public final class io.github.mobilemcp.sdk.Screen extends io.github.mobilemcp.sdk.Service {
  public io.github.mobilemcp.sdk.Screen();
  public void show();
}
public abstract class io.github.mobilemcp.sdk.Service {
  public io.github.mobilemcp.sdk.Service();
  protected abstract void registerHandlers(io.github.mobilemcp.sdk.Greeter);
  protected void onCreate();
}'
same "the sdk's restricted API: the internal package, each class with its @InternalApi" "$repo/android/sdk/restricted-api.txt" \
	'@InternalApi @NullMarked package io.github.mobilemcp.sdk.internal
@InternalApi public interface io.github.mobilemcp.sdk.internal.InternalApi extends java.lang.annotation.Annotation {
}
@InternalApi public final class io.github.mobilemcp.sdk.internal.Seam {
  public io.github.mobilemcp.sdk.internal.Seam();
  public static java.lang.String engine();
}
public final class io.github.mobilemcp.sdk.internal.Unmarked {
  public io.github.mobilemcp.sdk.internal.Unmarked();
  public void run();
}'

# --- Without --update: the classes match the listings.
listing "the classes match their listings" 0 -- "matches android/*/api.txt"

# --- A member that changes without its listing fails, naming the file and the fix.
write src/client/io/github/mobilemcp/client/Caller.java <<'EOF'
package io.github.mobilemcp.client;
public final class Caller {
    public String call(String capability, long timeoutMillis) { return capability; }
}
EOF
compile client
listing "a changed member fails the check" 1 -- \
	"api-listing: the public API of android/client differs from android/client/api.txt:" \
	"+  public java.lang.String call(java.lang.String, long);" \
	"run scripts/api-listing.sh --update and commit android/client/api.txt"

# --- An internal class that loses its @InternalApi fails the restricted listing.
write src/sdk/io/github/mobilemcp/sdk/internal/Seam.java <<'EOF'
package io.github.mobilemcp.sdk.internal;
public final class Seam {
    public static String engine() { return "engine"; }
}
EOF
compile sdk
listing "an internal class without @InternalApi fails the check" 1 -- \
	"api-listing: the restricted API (@InternalApi) of android/sdk differs from android/sdk/restricted-api.txt:" \
	"+public final class io.github.mobilemcp.sdk.internal.Seam {"

# --- A Kotlin name mangled for an inline class (kotlin.time.Duration) fails the check.
write src/client/io/github/mobilemcp/client/Caller.java <<'EOF'
package io.github.mobilemcp.client;
public final class Caller {
    public String call(String capability, long timeoutMillis) { return capability; }
}
EOF
compile client
listing "a changed member is listed again" 0 --update -- "wrote android/client/api.txt"
printf '%s\n' '  public final java.lang.Object call-8Mi8wO0(java.lang.String, long);' >>"$repo/android/client-ktx/api.txt"
listing "a mangled Kotlin name fails the check" 1 -- \
	"api-listing: android/client-ktx's API has a name Kotlin mangled; give the function a @JvmName:" \
	"call-8Mi8wO0(java.lang.String, long);"
listing "the listings are written anew" 0 --update -- "wrote android/client-ktx/api.txt"
printf '%s\n' '  public suspend fun call(timeout: kotlin.time.Duration)  // JVM name: call-VtjQ1oo' >>"$repo/android/client-ktx/api.txt"
listing "a mangled JVM name in a Kotlin listing fails the check" 1 -- \
	"api-listing: android/client-ktx's API has a name Kotlin mangled; give the function a @JvmName:" \
	"  public suspend fun call(timeout: kotlin.time.Duration)  // JVM name: call-VtjQ1oo"
listing "the listings are written anew" 0 --update -- "wrote android/client-ktx/api.txt"

# --- The engine's bound Java: a listing that names it, or a module built on the API alone that
# uses it, fails.
write src/engine/io/github/mobilemcp/intentbridge/Bridge.java <<'EOF'
package io.github.mobilemcp.intentbridge;
public final class Bridge {}
EOF
javac -d "$tmp/engine" "$tmp/src/engine/io/github/mobilemcp/intentbridge/Bridge.java" || { echo "api-listing_test: javac failed on the engine"; exit 1; }
printf '%s\n' '  public io.github.mobilemcp.intentbridge.Bridge engine();' >>"$repo/android/client/api.txt"
listing "a listing that names the engine fails" 1 -- \
	"api-listing: android/client's API names the engine's classes, which an app does not compile against:" \
	"  public io.github.mobilemcp.intentbridge.Bridge engine();"
listing "the listings are written again" 0 --update -- "wrote android/client/api.txt"
# notes: the sample tool, in which a class holds the engine.
write src/notes/io/github/mobilemcp/notes/Notes.java <<'EOF'
package io.github.mobilemcp.notes;
public final class Notes {
    public Object engine() { return new io.github.mobilemcp.intentbridge.Bridge(); }
}
EOF
mkdir -p "$repo/android/notes/target/classes"
javac -d "$repo/android/notes/target/classes" -cp "$tmp/engine" "$tmp/src/notes/io/github/mobilemcp/notes/Notes.java" ||
	{ echo "api-listing_test: javac failed on notes"; exit 1; }
listing "a tool built on the API that uses the engine fails" 1 -- \
	"api-listing: android/notes uses the engine's classes, which an app built on the sdk does not have:" \
	"io.github.mobilemcp.notes.Notes -> io.github.mobilemcp.intentbridge.Bridge"
write src/notes/io/github/mobilemcp/notes/Notes.java <<'EOF'
package io.github.mobilemcp.notes;
public final class Notes {
    public Object engine() { return "none"; }
}
EOF
compile notes
listing "a tool that uses none passes" 0 -- "api-listing: no listing names the engine's classes, and client client-ktx client-mcp sdk-ktx sdk-tests notes use none"

# --- After a release, a member it listed that is gone fails, until api-breaks.txt says why.
listing "no release: only the listings" 0 -- "no release yet"
if ! { git -C "$repo" init -q && git -C "$repo" add -A && git -C "$repo" -c user.name=t -c user.email=t@t commit -qm "0.1.0" &&
	git -C "$repo" tag v0.1.0; }; then
	echo "api-listing_test: git failed"
	exit 1
fi
listing "the listings keep what the release listed" 0 -- "the listings keep what v0.1.0 released"
write src/client/io/github/mobilemcp/client/Caller.java <<'EOF'
package io.github.mobilemcp.client;
public final class Caller {
    public String call(String capability, long timeoutMillis, boolean strict) { return capability; }
}
EOF
compile client
listing "a changed member is listed" 0 --update -- "wrote android/client/api.txt"
listing "a member the release listed is gone: the check fails" 1 -- \
	"api-listing: android/client removes or changes what v0.1.0 released, and android/client/api-breaks.txt does not record why:" \
	"-  public java.lang.String call(java.lang.String, long);" \
	'followed by a line "  why: ..."'
printf '%s\n' '  public java.lang.String call(java.lang.String, long);' >"$repo/android/client/api-breaks.txt"
listing "a break recorded without a reason still fails" 1 -- "-  public java.lang.String call(java.lang.String, long);"
printf '%s\n' '  public java.lang.String call(java.lang.String, long);' '  why: call takes strict; call(capability, timeoutMillis, false) does what it did' \
	>"$repo/android/client/api-breaks.txt"
listing "a break recorded with its reason passes" 0 -- "the listings keep what v0.1.0 released, or record why not"

for f in "${failed[@]}"; do
	echo "FAIL $f"
done
echo "api-listing_test: $cases cases, ${#failed[@]} failed"
[ "${#failed[@]}" = 0 ]

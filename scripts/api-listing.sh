#!/usr/bin/env bash
# api-listing.sh [--update]: the public API of the libraries a developer compiles against (the protocol
# vocabulary, the Tool SDK, the client library and its Kotlin, the testing library and the SDK's
# Kotlin extensions), read
# from their compiled classes (scripts/test-android.sh compiles them first) and kept in
# android/MODULE/api.txt: of the Java libraries as javap prints it, with its JSpecify nullness; of
# the Kotlin extensions as a Kotlin caller sees it (suspend funs, nullable types, default arguments,
# extension receivers), read from their Kotlin metadata by the harness's KotlinApiListing. It lists
# every public member, and every protected one of a class that is not final (a subclass calls or
# overrides it, as McpToolService.registerHandlers). What a library shares only with the other mobilemcp
# modules (its internal package, every class of it @InternalApi, as androidx's @RestrictTo) is
# listed apart, in android/MODULE/restricted-api.txt, so that it can be neither mistaken for API nor
# changed unseen. Without --update it fails when the classes differ from the listings, so that no
# change to what developers see goes unnoticed; with --update it writes the listings. It also fails
# when a listing names the engine's bound Java, or when a module built on the API alone (the sample
# tool, the Kotlin extensions) uses it: the sdk keeps the engine off an app's compile classpath.
# scripts/api-listing_test.sh tests it on classes made for the purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

MODULES="protocol sdk client client-ktx client-mcp sdk-testing sdk-ktx"
# The modules written in Kotlin, listed as Kotlin declarations (kotlin_listing).
KOTLIN_MODULES="client-ktx client-mcp sdk-ktx"
# The Java package of each module's own classes (the sdk's classes directory also holds gobind's).
declare -A PACKAGE=([protocol]=io.github.mobilemcp [sdk]=io.github.mobilemcp.sdk [client]=io.github.mobilemcp.client [sdk-testing]=io.github.mobilemcp.sdk.testing
	[sdk-ktx]=io.github.mobilemcp.sdk.ktx [client-ktx]=io.github.mobilemcp.client.ktx [client-mcp]=io.github.mobilemcp.client.mcp)
# The package of what a module shares with the other modules only, listed in restricted-api.txt.
declare -A RESTRICTED=([sdk]=io.github.mobilemcp.sdk.internal [sdk-testing]=io.github.mobilemcp.sdk.testing.internal)
# The annotation that marks it (RuntimeInvisibleAnnotations: its retention is CLASS).
INTERNAL_API=io.github.mobilemcp.sdk.internal.InternalApi
update=0
case "${1:-}" in
"") ;;
--update) update=1 ;;
*) echo "usage: scripts/api-listing.sh [--update]" >&2; exit 2 ;;
esac

# listing MODULE PACKAGE: every public class of PACKAGE (not of its subpackages) in the module and
# its public members, in a stable order, with their nullness: the first line says whether the
# package is @NullMarked (JSpecify: nothing in it is null unless marked) and @InternalApi, a class
# marked @InternalApi says so, and a member with a @Nullable in its signature ends in a comment that
# says where, such as "// @Nullable: return" or "// @Nullable: parameter 2". R, which aapt makes from
# the resources, is not listed, nor what Kotlin generates for its own calls (name$default,
# access$name). A package without classes is its first line alone.
listing() {
	local classes=android/$1/target/classes pkg=$2 names marks="" tab=$'\t'
	[ -d "$classes" ] || { echo "api-listing: $classes is missing; run scripts/test-android.sh first" >&2; exit 1; }
	if [[ " $KOTLIN_MODULES " == *" $1 "* ]]; then
		kotlin_listing "$classes" "$pkg"
		return
	fi
	names=$( (cd "$classes" && find . -name '*.class' ! -name '*$[0-9]*' ! -name package-info.class) |
		sed 's#^\./##; s#\.class$##; s#/#.#g' |
		grep -E "^${pkg//./\.}\.[^.]+$" | grep -Ev '\.R(\$|$)' | sort || true)
	if [ -e "$classes/${pkg//.//}/package-info.class" ]; then
		javap -v -cp "$classes" "$pkg.package-info" | grep -qx " *${INTERNAL_API//./\.}" && marks="@InternalApi "
		javap -v -cp "$classes" "$pkg.package-info" | grep -qx ' *org\.jspecify\.annotations\.NullMarked' && marks+="@NullMarked "
	fi
	if [ -n "$marks" ]; then
		echo "${marks}package $pkg"
	elif grep -rqs 'kotlin/Metadata' "$classes/${pkg//.//}"; then
		# Kotlin: every type is not null unless Kotlin marks it nullable (org.jetbrains.annotations.Nullable).
		echo "Kotlin package $pkg (not null unless marked)"
	else
		echo "package $pkg"
	fi
	[ -n "$names" ] || return 0
	# shellcheck disable=SC2086 # one argument per class
	javap -protected -cp "$classes" $names | awk -F '\t' '
		# From nullable() below: class, member number, where: a @Nullable type annotation, or
		# "@InternalApi" for member 0, the class itself.
		FILENAME != "-" { key = $1 FS $2; w = (key in where) ? where[key] ", " $3 : $3; where[key] = w; next }
		/^Compiled from/ { next }
		/^public / { keep = 1; n = 0; final = $0 ~ /^public (abstract )?final /; match($0, /(class|interface) [^ <{]+/); cls = substr($0, RSTART, RLENGTH); sub(/^[a-z]+ /, "", cls) }
		/^public / && (cls FS 0) in where { print where[cls FS 0] " " $0; next }
		/^(final |abstract )?class |^interface / { keep = 0 }
		keep && /^  .*;$/ { n++ }
		# A protected member is API where a subclass can reach it: not in a final class.
		keep && final && /^  protected / { next }
		# What Kotlin generates for the compiler itself: default-argument bridges and accessors.
		keep && /;$/ && /[ .](access\$[^ (]*|[^ (]*\$default)\(/ { next }
		keep && /;$/ && (cls FS n) in where { print $0 "  // @Nullable: " where[cls FS n]; next }
		keep { print }
		/^}/ { keep = 0 }' <(nullable "$classes" $names | sort -t "$tab" -k1,1 -k2,2n -k3,3V) -
}

# The harness's lister of Kotlin declarations, and the classpath its build writes (kotlin-metadata-jvm, ASM).
LISTER=android/harness/target/classes
LISTER_CLASSPATH=android/harness/target/api-listing.classpath

# kotlin_listing CLASSES PACKAGE: every public class, object and file facade of PACKAGE (not of its
# subpackages) and its public members (protected ones too where a subclass reaches them) as Kotlin
# declares them, read from the Kotlin metadata: "suspend fun send(request: ...Request, timeout:
# kotlin.time.Duration = ...): ...Reply", where the JVM signature shows an Object, a long and a
# Continuation. A type is not null unless it ends in ?; "= ..." marks a default argument; an opt-in
# marker (an annotation that is itself @RequiresOptIn) precedes what it marks. The markers' classes
# are looked up in every module's classes and in the lister's own classpath.
kotlin_listing() {
	local classes=$1 pkg=$2
	[ -f "$LISTER_CLASSPATH" ] || {
		echo "api-listing: $LISTER_CLASSPATH is missing; run scripts/test-android.sh first (or mvn -o -f android/pom.xml -pl harness process-classes)" >&2
		exit 1
	}
	echo "Kotlin package $pkg (Kotlin declarations: a type is not null unless it ends in ?)"
	java -cp "$LISTER:$(cat "$LISTER_CLASSPATH")" io.github.mobilemcp.harness.KotlinApiListing "$classes" "$pkg" \
		"$(printf '%s:' android/*/target/classes)$(cat "$LISTER_CLASSPATH")"
}

# nullable CLASSES NAME...: where each public member of the classes NAME has a JSpecify @Nullable, or
# Kotlin's (org.jetbrains.annotations.Nullable), one line each (class, the member's number in the
# class as javap lists them, and where), read from javap -v: a type annotation of the member, its
# target (METHOD_RETURN, METHOD_FORMAL_PARAMETER, ...) and the annotation's name; or Kotlin's
# annotation of a method (its return) or of its parameter N. Members are numbered, not named, because javap -v declares some
# differently (<T extends java.lang.Object> for <T>). A class marked @InternalApi is member 0, where
# "@InternalApi".
nullable() {
	local classes=$1
	shift
	javap -v -protected -cp "$classes" "$@" | awk -v internal="$INTERNAL_API" '
		function ordinal(s) { return s + 1 }
		# "METHOD_FORMAL_PARAMETER, param_index=1, location=[TYPE_ARGUMENT(0)]" -> "parameter 2 type argument 1"
		function where(t,    w, loc, n, steps, i) {
			if (t ~ /^METHOD_RETURN/) w = "return"
			else if (t ~ /^METHOD_FORMAL_PARAMETER/) { match(t, /param_index=[0-9]+/); w = "parameter " ordinal(substr(t, RSTART + 12, RLENGTH - 12)) }
			else if (t ~ /^METHOD_TYPE_PARAMETER_BOUND/) { match(t, /param_index=[0-9]+/); w = "bound of type parameter " ordinal(substr(t, RSTART + 12, RLENGTH - 12)) }
			else if (t ~ /^FIELD/) w = "type"
			else { w = t; sub(/,.*/, "", w) }
			if (match(t, /location=\[[^]]*\]/)) {
				loc = substr(t, RSTART + 10, RLENGTH - 11)
				n = split(loc, steps, /, /)
				for (i = 1; i <= n; i++) {
					if (steps[i] ~ /^TYPE_ARGUMENT\(/) { sub(/^TYPE_ARGUMENT\(/, "", steps[i]); sub(/\)$/, "", steps[i]); w = w " type argument " ordinal(steps[i]) }
					else if (steps[i] == "ARRAY") w = w " element"
					else w = w " " tolower(steps[i])
				}
			}
			return w
		}
		/^  this_class: / { cls = $NF; gsub("/", ".", cls); member = 0; next }
		# The annotations of the class itself follow its members, after the closing brace.
		/^RuntimeInvisibleAnnotations:$/ { classmarks = 1; inside = 0; next }
		classmarks && $1 == internal { print cls "\t0\t@InternalApi"; next }
		classmarks && /^ / { next }
		/^[^ ]/ { inside = $0 == "{"; annotations = 0; classmarks = 0; next }
		inside && /^  [^ ].*;$/ { member++; annotations = 0; next }
		/^    [^ ]/ {
			annotations = inside && $0 ~ /^    RuntimeVisibleTypeAnnotations:$/
			kotlin = inside && $0 ~ /^    RuntimeInvisibleAnnotations:$/ ? "return" : ""
			kparams = inside && $0 ~ /^    RuntimeInvisibleParameterAnnotations:$/
			next
		}
		kparams && /^      parameter [0-9]+:$/ { kotlin = "parameter " ordinal(substr($2, 1, length($2) - 1)); next }
		kotlin != "" && /^ +org\.jetbrains\.annotations\.Nullable$/ { print cls "\t" member "\t" kotlin; next }
		annotations && /^      [0-9]+: / { target = $0; sub(/^ *[0-9]+: #[0-9]+\([^)]*\): /, "", target); next }
		annotations && /^        org\.jspecify\.annotations\.Nullable$/ { print cls "\t" member "\t" where(target) }'
}

# check MODULE PACKAGE FILE WHAT: writes FILE with --update, else compares it with the listing.
check() {
	local m=$1 file=$3 what=$4 out
	out=$(mktemp)
	listing "$m" "$2" >"$out"
	if [ "$update" = 1 ]; then
		mv "$out" "$file"
		echo "api-listing: wrote $file"
		return
	fi
	if ! diff -u "$file" "$out" >"build/api-$m-$(basename "$file" .txt).diff" 2>&1; then
		echo "api-listing: the $what of android/$m differs from $file:" >&2
		cat "build/api-$m-$(basename "$file" .txt).diff" >&2
		echo "api-listing: if the change is meant, run scripts/api-listing.sh --update and commit $file" >&2
		status=1
	fi
	rm -f "$out"
}

# mangled MODULE FILE: fails when the listing FILE holds a JVM name that Kotlin mangled (a function
# that takes or returns an inline class, such as kotlin.time.Duration: call-8Mi8wO0), which a Java
# caller cannot spell and which changes with the Kotlin compiler; @JvmName gives it a name. javap
# prints it as the method's name; a Kotlin listing as "// JVM name: call-8Mi8wO0".
mangled() {
	local found
	found=$(grep -E -- '-[0-9A-Za-z_]{7}(\(|$)' "$2" || true)
	if [ -n "$found" ]; then
		echo "api-listing: android/$1's API has a name Kotlin mangled; give the function a @JvmName:" >&2
		echo "$found" >&2
		status=1
	fi
}

# The engine's bound Java (gobind's), which the sdk keeps to itself: an app compiles without it (the
# sdk AAR's api.jar leaves it out; in the harness the sdk depends on it at runtime scope), so no
# listed member may name it, and what builds on the API alone may not use it.
ENGINE_PACKAGES='io\.github\.mobilemcp\.(intentbridge|engine\.go)'
# The modules that build on the libraries' API alone, as a tool or an assistant does: the sample
# tool, the Kotlin extensions, the client and the sdk's own test tool. (The SMS app and sdk-testing
# declare the engine themselves.)
CONSUMERS="client client-ktx client-mcp sdk-ktx sdk-tests notes"

# engine_named MODULE FILE: fails when the listing FILE names a class of the engine.
engine_named() {
	local found
	found=$(grep -E -- "$ENGINE_PACKAGES\." "$2" || true)
	if [ -n "$found" ]; then
		echo "api-listing: android/$1's API names the engine's classes, which an app does not compile against:" >&2
		echo "$found" >&2
		status=1
	fi
}

# engine_used MODULE: fails when the compiled classes of MODULE use a class of the engine (jdeps).
engine_used() {
	local classes=android/$1/target/classes found
	[ -d "$classes" ] || return 0
	found=$(jdeps -verbose:class "$classes" 2>/dev/null | grep -E -- "-> +$ENGINE_PACKAGES\." || true)
	if [ -n "$found" ]; then
		echo "api-listing: android/$1 uses the engine's classes, which an app built on the sdk does not have:" >&2
		echo "$found" | sed 's/  */ /g' >&2
		status=1
	fi
}

# The last release: the newest tag vX.Y.Z (not a pre-release) in HEAD's history, or none.
last_release() {
	git tag --merged HEAD --list 'v[0-9]*' --sort=-v:refname 2>/dev/null | grep -v -- - | head -n 1 || true
}

# compatible MODULE RELEASE: fails when a member of the module's listing at the tag RELEASE is gone
# from its listing now (removed, or changed: a changed member is a line gone and a line new), unless
# android/MODULE/api-breaks.txt records it: the member's line as the release listed it, then a line
# "  why: ..." that says why and how to move (RELEASING.md, "Breaking the API").
compatible() {
	local m=$1 tag=$2 breaks=android/$1/api-breaks.txt released gone
	released=$(git show "$tag:android/$m/api.txt" 2>/dev/null) || {
		echo "api-listing: $tag has no android/$m/api.txt; android/$m is new since $tag"
		return 0
	}
	gone=$(comm -23 <(sort -u <<<"$released") <(sort -u "android/$m/api.txt"))
	[ -n "$gone" ] || return 0
	# Each gone line that api-breaks.txt does not record with a reason.
	gone=$(awk 'FILENAME != "-" { if (prev != "" && $0 ~ /^  why: ./) why[prev] = 1; prev = $0; next } !($0 in why)' \
		"$(if [ -f "$breaks" ]; then echo "$breaks"; else echo /dev/null; fi)" - <<<"$gone")
	if [ -n "$gone" ]; then
		echo "api-listing: android/$m removes or changes what $tag released, and $breaks does not record why:" >&2
		echo "$gone" | sed 's/^/-/' >&2
		echo "api-listing: if the break is meant, add each line to $breaks, followed by a line \"  why: ...\" saying how to move" >&2
		status=1
	fi
}

mkdir -p build
status=0
for m in $MODULES; do
	check "$m" "${PACKAGE[$m]}" "android/$m/api.txt" "public API"
	[ "$update" = 1 ] || mangled "$m" "android/$m/api.txt"
	[ "$update" = 1 ] || engine_named "$m" "android/$m/api.txt"
	if [ -n "${RESTRICTED[$m]:-}" ]; then
		check "$m" "${RESTRICTED[$m]}" "android/$m/restricted-api.txt" "restricted API (@InternalApi)"
	fi
done
if [ "$update" = 0 ]; then
	for m in $CONSUMERS; do
		engine_used "$m"
	done
fi
[ "$update" = 1 ] || [ "$status" != 0 ] || echo "api-listing: the public API of $MODULES matches android/*/api.txt, and the restricted API android/*/restricted-api.txt"
[ "$update" = 1 ] || [ "$status" != 0 ] || echo "api-listing: no listing names the engine's classes, and $CONSUMERS use none"
# After a release, what it released stays, unless a break is recorded.
if [ "$update" = 0 ]; then
	release=$(last_release)
	if [ -z "$release" ]; then
		echo "api-listing: no release yet, so nothing to stay compatible with but the listings"
	else
		before=$status
		for m in $MODULES; do
			compatible "$m" "$release"
		done
		[ "$status" != "$before" ] || [ "$status" != 0 ] || echo "api-listing: the listings keep what $release released, or record why not"
	fi
fi
exit $status

#!/usr/bin/env bash
# api-listing.sh [--update]: the public API of the libraries a developer compiles against (the Tool
# SDK, the client library, the testing library and the SDK's Kotlin extensions), as javap prints it from their compiled classes
# (scripts/test-android.sh compiles them first), kept in android/MODULE/api.txt. Without --update it
# fails when the API differs from the listing, so that no change to what developers see goes
# unnoticed; with --update it writes the listings.
set -euo pipefail
cd "$(dirname "$0")/.."

MODULES="sdk client testing sdk-ktx"
# The Java package of each module's own classes (the sdk's classes directory also holds gobind's).
declare -A PACKAGE=([sdk]=io.github.mobilemcp.sdk. [client]=io.github.mobilemcp.client. [testing]=io.github.mobilemcp.sdk.testing.
	[sdk-ktx]=io.github.mobilemcp.sdk.ktx.)
update=0
case "${1:-}" in
"") ;;
--update) update=1 ;;
*) echo "usage: scripts/api-listing.sh [--update]" >&2; exit 2 ;;
esac

# listing MODULE: every public class of the module and its public and protected members, in a
# stable order. R, which aapt makes from the resources, is not listed.
listing() {
	local classes=android/$1/target/classes names
	[ -d "$classes" ] || { echo "api-listing: $classes is missing; run scripts/test-android.sh first" >&2; exit 1; }
	names=$(cd "$classes" && find . -name '*.class' ! -name '*$[0-9]*' | sed 's#^\./##; s#\.class$##; s#/#.#g' |
		grep -F "${PACKAGE[$1]}" | grep -v "^${PACKAGE[$1]//./\.}testing\." | grep -Ev '\.R(\$|$)' | sort)
	# shellcheck disable=SC2086 # one argument per class
	javap -public -cp "$classes" $names | awk '
		/^Compiled from/ { next }
		/^public / { keep = 1 }
		/^(final |abstract )?class |^interface / { keep = 0 }
		keep { print }
		/^}/ { keep = 0 }'
}

mkdir -p build
status=0
for m in $MODULES; do
	file=android/$m/api.txt
	if [ "$update" = 1 ]; then
		listing "$m" >"$file"
		echo "api-listing: wrote $file"
	elif ! diff -u "$file" <(listing "$m") >"build/api-$m.diff" 2>&1; then
		echo "api-listing: the public API of android/$m differs from $file:" >&2
		cat "build/api-$m.diff" >&2
		echo "api-listing: if the change is meant, run scripts/api-listing.sh --update and commit $file" >&2
		status=1
	fi
done
[ "$update" = 1 ] || [ "$status" != 0 ] || echo "api-listing: the public API of $MODULES matches android/*/api.txt"
exit $status

#!/usr/bin/env bash
# publish-central.sh STAGING BUNDLE: signs every file of the Maven repository STAGING (what
# ci/pipeline.sh stage published there: io/github/mobilemcp/ARTIFACT/VERSION for sdk,
# sdk-testing, sdk-testing-engine, client and sdk-ktx), adds the checksums Maven Central requires,
# zips it into the deployment BUNDLE, uploads that to the Central Portal's Publisher API, and then
# waits for the Portal's verdict: the Portal validates a deployment only after the upload returned,
# so the job passes only once Central says PUBLISHED, and fails, printing Central's errors, on FAILED.
#
#   publish-central.sh sign STAGING   only signs and checksums (make release-check does, with a
#                                     throwaway key)
#
# From the environment (the release workflow's secrets):
#   GPG_PRIVATE_KEY, GPG_PASSPHRASE            the armored signing key, imported into a throwaway keyring
#   CENTRAL_TOKEN_USER, CENTRAL_TOKEN_PASSWORD the Central Portal user token (not for sign)
# Overridable for the tests: GPG, CURL, CENTRAL_API (default https://central.sonatype.com/api/v1/publisher),
# PUBLISHING_TYPE (AUTOMATIC: published once valid, the default; USER_MANAGED: it stops at VALIDATED
# and waits for a click in the Portal), POLL_SECONDS (10) and POLL_LIMIT (360 polls, an hour).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
	echo "publish-central: $*" >&2
	exit 1
}
usage() {
	echo "usage: ci/publish-central.sh STAGING BUNDLE | sign STAGING" >&2
	exit 2
}
GPG=${GPG:-gpg}
CURL=${CURL:-curl}
CENTRAL_API=${CENTRAL_API:-https://central.sonatype.com/api/v1/publisher}
PUBLISHING_TYPE=${PUBLISHING_TYPE:-AUTOMATIC}
POLL_SECONDS=${POLL_SECONDS:-10}
POLL_LIMIT=${POLL_LIMIT:-360}
# Every artifact a release publishes.
ARTIFACTS="sdk sdk-testing sdk-testing-engine client sdk-ktx"

need_env() {
	local var
	for var in "$@"; do
		[ -n "${!var:-}" ] || fail "$var is not set; the release workflow takes it from the repository's secrets"
	done
}

check_staging() {
	local staging=$1 artifact kind
	[ -d "$staging/io/github/mobilemcp" ] || fail "$staging holds no io/github/mobilemcp artifacts; run ci/pipeline.sh stage first"
	# Every artifact Central needs: a POM, sources and javadoc.
	for artifact in $ARTIFACTS; do
		for kind in .pom -sources.jar -javadoc.jar; do
			compgen -G "$staging/io/github/mobilemcp/$artifact/*/$artifact-*$kind" >/dev/null ||
				fail "$staging has no $artifact $kind; Maven Central refuses a release without it"
		done
	done
}

# sign STAGING: a detached signature, an MD5 and a SHA-1 of every file Gradle published; the
# metadata files Central ignores are left alone.
sign() {
	local staging=$1
	GNUPGHOME=$(mktemp -d)
	export GNUPGHOME
	trap 'rm -rf "$GNUPGHOME"' EXIT
	printf '%s\n' "$GPG_PRIVATE_KEY" | "$GPG" --batch --import
	find "$staging/io" -type f ! -name 'maven-metadata*' ! -name '*.asc' ! -name '*.md5' ! -name '*.sha1' \
		! -name '*.sha256' ! -name '*.sha512' -print0 |
		while IFS= read -r -d '' file; do
			printf '%s' "$GPG_PASSPHRASE" | "$GPG" --batch --yes --pinentry-mode loopback --passphrase-fd 0 \
				--armor --detach-sign --output "$file.asc" "$file"
			md5sum "$file" | cut -d' ' -f1 >"$file.md5"
			sha1sum "$file" | cut -d' ' -f1 >"$file.sha1"
		done
}

# state JSON: the deploymentState of a status reply.
state() {
	sed -n 's/.*"deploymentState"[[:space:]]*:[[:space:]]*"\([A-Z_]*\)".*/\1/p' <<<"$1" | head -n 1
}

# poll DEPLOYMENT HEADERS: asks Central for the deployment's state until it is final.
poll() {
	local deployment=$1 headers=$2 reply current last='' polls=0 want=PUBLISHED
	[ "$PUBLISHING_TYPE" = USER_MANAGED ] && want=VALIDATED
	while :; do
		reply=$("$CURL" --silent --show-error --fail-with-body -X POST -H "@$headers" \
			"$CENTRAL_API/status?id=$deployment") || fail "Central did not answer for deployment $deployment: $reply"
		current=$(state "$reply")
		[ -n "$current" ] || fail "Central's answer for deployment $deployment has no deploymentState: $reply"
		if [ "$current" != "$last" ]; then
			echo "publish-central: deployment $deployment is $current"
			last=$current
		fi
		case "$current" in
		"$want")
			return 0
			;;
		FAILED)
			echo "publish-central: Central failed deployment $deployment:" >&2
			printf '%s\n' "$reply" >&2
			fail "nothing was published; fix what Central reports above and release again under a new version"
			;;
		esac
		polls=$((polls + 1))
		[ "$polls" -lt "$POLL_LIMIT" ] ||
			fail "deployment $deployment is still $current after $polls checks; see https://central.sonatype.com/publishing/deployments"
		sleep "$POLL_SECONDS"
	done
}

publish() {
	local staging=$1 bundle=$2
	need_env GPG_PRIVATE_KEY GPG_PASSPHRASE CENTRAL_TOKEN_USER CENTRAL_TOKEN_PASSWORD
	check_staging "$staging"
	sign "$staging"

	mkdir -p "$(dirname "$bundle")"
	bundle=$(cd "$(dirname "$bundle")" && pwd)/$(basename "$bundle")
	rm -f "$bundle"
	(cd "$staging" && find io -type f ! -name 'maven-metadata*' | sort | zip -q -X "$bundle" -@)
	echo "publish-central: bundled $(unzip -Z1 "$bundle" | wc -l) files into $bundle"

	local token headers deployment
	token=$(printf '%s:%s' "$CENTRAL_TOKEN_USER" "$CENTRAL_TOKEN_PASSWORD" | base64 | tr -d '\n')
	# The token goes in a header file, not on the command line, where other processes could read it.
	headers=$GNUPGHOME/headers
	printf 'Authorization: Bearer %s\n' "$token" >"$headers"
	deployment=$("$CURL" --silent --show-error --fail-with-body -H "@$headers" \
		-F "bundle=@$bundle" "$CENTRAL_API/upload?publishingType=$PUBLISHING_TYPE") ||
		fail "the Central Portal refused the bundle: $deployment"
	echo "publish-central: uploaded; deployment $deployment ($PUBLISHING_TYPE), see https://central.sonatype.com/publishing/deployments"
	poll "$deployment" "$headers"
	if [ "$PUBLISHING_TYPE" = USER_MANAGED ]; then
		echo "publish-central: deployment $deployment is valid; publish it in the Portal"
	else
		echo "publish-central: deployment $deployment is published on Maven Central"
	fi
}

case "${1:-}" in
sign)
	[ $# = 2 ] || usage
	need_env GPG_PRIVATE_KEY GPG_PASSPHRASE
	sign "$2"
	echo "publish-central: signed every file of $2"
	;;
"") usage ;;
*)
	[ $# = 2 ] || usage
	publish "$1" "$2"
	;;
esac

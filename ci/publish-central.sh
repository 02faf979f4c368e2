#!/usr/bin/env bash
# publish-central.sh STAGING BUNDLE: signs every file of the Maven repository STAGING (what
# ci/pipeline.sh stage published there: io/github/mobilemcp/ARTIFACT/VERSION for every artifact of
# ci/pipeline.sh artifacts, and nothing else), adds the checksums Maven Central requires, zips it
# into the deployment BUNDLE, uploads that to the Central Portal's Publisher API, and then waits for
# the Portal's verdict: the Portal validates a deployment only after the upload returned, so the job
# passes once Central says PUBLISHED, and fails, printing Central's errors, on FAILED.
#
# It waits within a budget (POLL_BUDGET seconds, 45 minutes), which the publish job's timeout
# leaves room for, so that the job always ends by itself and the GitHub release after it is made.
# If the budget ends while Central is PUBLISHING (valid, and on its way to Maven Central, which takes
# no further step of ours), the job passes. If it ends before Central has validated the deployment,
# the job fails, naming it.
#
# A re-run completes a release without uploading it again: it first asks Central whether each
# artifact of the version is published already. All of them are: it signs and uploads nothing, and
# passes. Some are: it fails, naming them (a version is published whole or not at all).
#
#   publish-central.sh sign STAGING   only signs and checksums (make release-check does, with a
#                                     throwaway key)
#
# From the environment (the release workflow's secrets):
#   GPG_PRIVATE_KEY, GPG_PASSPHRASE            the armored signing key, imported into a throwaway keyring
#   CENTRAL_TOKEN_USER, CENTRAL_TOKEN_PASSWORD the Central Portal user token (not for sign)
# Overridable for the tests: GPG, CURL, CENTRAL_API (default https://central.sonatype.com/api/v1/publisher),
# PUBLISHING_TYPE (AUTOMATIC: published once valid, the default; USER_MANAGED: it stops at VALIDATED
# and waits for a click in the Portal), POLL_SECONDS (10 between polls) and POLL_BUDGET (2700).
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
POLL_BUDGET=${POLL_BUDGET:-2700}
NAMESPACE=io.github.mobilemcp
GROUP_DIR=io/github/mobilemcp
# The keyring and the token's header file, gone when the script ends.
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

need_env() {
	local var
	for var in "$@"; do
		[ -n "${!var:-}" ] || fail "$var is not set; the release workflow takes it from the repository's secrets"
	done
}

# check_staging STAGING: the repository holds exactly the artifacts a release publishes (the
# modules' list, ci/pipeline.sh artifacts), each at one version, the same for all, with the files
# Central needs: a POM, sources and javadoc. Sets VERSION and ARTIFACTS.
check_staging() {
	local staging=$1 artifact kind versions dir staged=()
	[ -d "$staging/$GROUP_DIR" ] || fail "$staging holds no $GROUP_DIR artifacts; run ci/pipeline.sh stage first"
	ARTIFACTS=$(ci/pipeline.sh artifacts | cut -d' ' -f2 | sort)
	for dir in "$staging/$GROUP_DIR"/*/; do
		staged+=("$(basename "$dir")")
	done
	for artifact in $ARTIFACTS; do
		[ -d "$staging/$GROUP_DIR/$artifact" ] || fail "$staging has no $artifact, which the release publishes (ci/pipeline.sh artifacts)"
	done
	for artifact in "${staged[@]}"; do
		grep -qxF "$artifact" <<<"$ARTIFACTS" ||
			fail "$staging has $artifact, which no module publishes (ci/pipeline.sh artifacts): it would go to Central unchecked"
	done
	VERSION=
	for artifact in $ARTIFACTS; do
		versions=$(find "$staging/$GROUP_DIR/$artifact" -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
		if [ -z "$versions" ] || [ "$(wc -l <<<"$versions")" != 1 ]; then
			fail "$staging has $artifact at $(tr '\n' ' ' <<<"$versions"); the release stages one version"
		fi
		[ -z "$VERSION" ] || [ "$versions" = "$VERSION" ] ||
			fail "$staging has $artifact $versions beside $VERSION; every artifact of a release has one version"
		VERSION=$versions
		# Every artifact Central needs: a POM, sources and javadoc.
		for kind in .pom -sources.jar -javadoc.jar; do
			[ -e "$staging/$GROUP_DIR/$artifact/$VERSION/$artifact-$VERSION$kind" ] ||
				fail "$staging has no $artifact $kind; Maven Central refuses a release without it"
		done
	done
}

# published HEADERS: sets PUBLISHED to how many of ARTIFACTS Central has published at VERSION
# already, and MISSING to the others.
published() {
	local headers=$1 artifact reply
	PUBLISHED=0
	MISSING=
	for artifact in $ARTIFACTS; do
		reply=$("$CURL" --silent --show-error --fail-with-body -H "@$headers" \
			"$CENTRAL_API/published?namespace=$NAMESPACE&name=$artifact&version=$VERSION") ||
			fail "Central did not say whether $artifact $VERSION is published: $reply"
		if grep -q '"published"[[:space:]]*:[[:space:]]*true' <<<"$reply"; then
			PUBLISHED=$((PUBLISHED + 1))
		elif grep -q '"published"[[:space:]]*:[[:space:]]*false' <<<"$reply"; then
			MISSING+=" $artifact"
		else
			fail "Central's answer for $artifact $VERSION says neither published nor not: $reply"
		fi
	done
}

# sign STAGING: a detached signature, an MD5 and a SHA-1 of every file Gradle published; the
# metadata files Central ignores are left alone.
sign() {
	local staging=$1
	GNUPGHOME=$WORK/gnupg
	mkdir -m 700 "$GNUPGHOME"
	export GNUPGHOME
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

# poll DEPLOYMENT HEADERS: asks Central for the deployment's state until it is final, or the budget
# is spent.
poll() {
	local deployment=$1 headers=$2 reply current last='' start=$SECONDS want=PUBLISHED
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
		if [ $((SECONDS - start)) -ge "$POLL_BUDGET" ]; then
			if [ "$current" = PUBLISHING ]; then
				echo "publish-central: deployment $deployment is valid and still PUBLISHING after $((SECONDS - start)) s; Maven Central gets it without us (https://central.sonatype.com/publishing/deployments)"
				return 0
			fi
			fail "deployment $deployment is still $current after $((SECONDS - start)) s, and nothing is published yet. Once the Portal (https://central.sonatype.com/publishing/deployments) shows it PUBLISHED, re-run this job: it finds the version on Central and completes the release without uploading again. If it shows FAILED, drop it there first."
		fi
		sleep "$POLL_SECONDS"
	done
}

publish() {
	local staging=$1 bundle=$2
	need_env GPG_PRIVATE_KEY GPG_PASSPHRASE CENTRAL_TOKEN_USER CENTRAL_TOKEN_PASSWORD
	check_staging "$staging"

	local token headers deployment
	token=$(printf '%s:%s' "$CENTRAL_TOKEN_USER" "$CENTRAL_TOKEN_PASSWORD" | base64 | tr -d '\n')
	# The token goes in a header file, not on the command line, where other processes could read it.
	headers=$WORK/headers
	printf 'Authorization: Bearer %s\n' "$token" >"$headers"

	# A re-run of a release that Central has published: nothing to upload.
	published "$headers"
	if [ -z "$MISSING" ]; then
		echo "publish-central: Central has published every artifact of $VERSION already (a re-run); nothing is uploaded"
		return 0
	fi
	[ "$PUBLISHED" = 0 ] ||
		fail "Central has published $PUBLISHED artifacts of $VERSION, but not$MISSING: a version is published whole, so look at the Portal's deployments before anything else"

	sign "$staging"
	mkdir -p "$(dirname "$bundle")"
	bundle=$(cd "$(dirname "$bundle")" && pwd)/$(basename "$bundle")
	rm -f "$bundle"
	(cd "$staging" && find io -type f ! -name 'maven-metadata*' | sort | zip -q -X "$bundle" -@)
	echo "publish-central: bundled $(unzip -Z1 "$bundle" | wc -l) files into $bundle"

	deployment=$("$CURL" --silent --show-error --fail-with-body -H "@$headers" \
		-F "bundle=@$bundle" "$CENTRAL_API/upload?name=mobilemcp-$VERSION&publishingType=$PUBLISHING_TYPE") ||
		fail "the Central Portal refused the bundle: $deployment"
	echo "publish-central: uploaded $VERSION; deployment $deployment ($PUBLISHING_TYPE), see https://central.sonatype.com/publishing/deployments"
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

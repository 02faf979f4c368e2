#!/usr/bin/env bash
# publish-central.sh STAGING BUNDLE: signs every file of the Maven repository STAGING (what
# scripts/ci-android.sh stage published there: io/github/mobilemcp/{sdk,sdk-testing,client}/VERSION),
# adds the checksums Maven Central requires, zips it into the deployment BUNDLE, and uploads that to
# the Central Portal's Publisher API, which validates and publishes it.
#
# From the environment (the release workflow's secrets):
#   GPG_PRIVATE_KEY, GPG_PASSPHRASE            the armored signing key, imported into a throwaway keyring
#   CENTRAL_TOKEN_USER, CENTRAL_TOKEN_PASSWORD the Central Portal user token
# Overridable for the tests: GPG, CURL, CENTRAL_URL, and PUBLISHING_TYPE (AUTOMATIC: published once
# valid; USER_MANAGED: waits for a click in the Portal).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
	echo "publish-central: $*" >&2
	exit 1
}
[ $# -eq 2 ] || { echo "usage: scripts/publish-central.sh STAGING BUNDLE" >&2; exit 2; }
staging=$1
bundle=$2
GPG=${GPG:-gpg}
CURL=${CURL:-curl}
CENTRAL_URL=${CENTRAL_URL:-https://central.sonatype.com/api/v1/publisher/upload}
PUBLISHING_TYPE=${PUBLISHING_TYPE:-AUTOMATIC}

for var in GPG_PRIVATE_KEY GPG_PASSPHRASE CENTRAL_TOKEN_USER CENTRAL_TOKEN_PASSWORD; do
	[ -n "${!var:-}" ] || fail "$var is not set; the release workflow takes it from the repository's secrets"
done
[ -d "$staging/io/github/mobilemcp" ] || fail "$staging holds no io/github/mobilemcp artifacts; run scripts/ci-android.sh stage first"
# Every artifact Central needs: a POM, the library, sources and javadoc.
for artifact in sdk sdk-testing client; do
	for kind in .pom -sources.jar -javadoc.jar; do
		compgen -G "$staging/io/github/mobilemcp/$artifact/*/$artifact-*$kind" >/dev/null ||
			fail "$staging has no $artifact $kind; Maven Central refuses a release without it"
	done
done

GNUPGHOME=$(mktemp -d)
export GNUPGHOME
trap 'rm -rf "$GNUPGHOME"' EXIT
printf '%s\n' "$GPG_PRIVATE_KEY" | "$GPG" --batch --import

# Sign and checksum what Gradle published; the metadata files Central ignores stay out of the bundle.
find "$staging/io" -type f ! -name 'maven-metadata*' ! -name '*.asc' ! -name '*.md5' ! -name '*.sha1' \
	! -name '*.sha256' ! -name '*.sha512' -print0 |
	while IFS= read -r -d '' file; do
		printf '%s' "$GPG_PASSPHRASE" | "$GPG" --batch --yes --pinentry-mode loopback --passphrase-fd 0 \
			--armor --detach-sign --output "$file.asc" "$file"
		md5sum "$file" | cut -d' ' -f1 >"$file.md5"
		sha1sum "$file" | cut -d' ' -f1 >"$file.sha1"
	done

mkdir -p "$(dirname "$bundle")"
bundle=$(cd "$(dirname "$bundle")" && pwd)/$(basename "$bundle")
rm -f "$bundle"
(cd "$staging" && find io -type f ! -name 'maven-metadata*' | sort | zip -q -X "$bundle" -@)
echo "publish-central: bundled $(unzip -Z1 "$bundle" | wc -l) files into $bundle"

token=$(printf '%s:%s' "$CENTRAL_TOKEN_USER" "$CENTRAL_TOKEN_PASSWORD" | base64 -w0)
# The token goes in a header file, not on the command line, where other processes could read it.
headers=$GNUPGHOME/headers
printf 'Authorization: Bearer %s\n' "$token" >"$headers"
deployment=$("$CURL" --silent --show-error --fail-with-body -H "@$headers" \
	-F "bundle=@$bundle" "$CENTRAL_URL?publishingType=$PUBLISHING_TYPE") ||
	fail "the Central Portal refused the bundle: $deployment"
echo "publish-central: uploaded; deployment $deployment ($PUBLISHING_TYPE), see https://central.sonatype.com/publishing/deployments"

#!/usr/bin/env bash
# build-id.sh: prints the build id every engine of this checkout carries (internal/buildinfo): the
# commit, with "-dirty" when the checkout has changes, as Go's own stamping writes it; "unknown"
# outside a git checkout. The host engine (scripts/host-engine.sh) and the AAR's engines
# (scripts/android-build.sh) are stamped with it, so the test runner can check they match.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! commit=$(git rev-parse HEAD 2>/dev/null); then
	echo unknown
	exit 0
fi
if [ -n "$(git status --porcelain 2>/dev/null)" ]; then
	commit+=-dirty
fi
echo "$commit"

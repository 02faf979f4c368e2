#!/usr/bin/env bash
# Checks the subjects of the commits made since the history adopted the
# rule: at most 72 characters, and never a placeholder such as "wip". The
# reason for a change goes in the commit's body. Commits before BASE were
# published before the rule, and published history is not rewritten.
#
# Usage: ci/commit-subjects.sh [BASE]   (prints one line per bad subject)
set -euo pipefail

base=${1:-b1559910bf00869e9ba994bb487283492685cb09}
if ! git cat-file -e "$base^{commit}" 2>/dev/null; then
	# A shallow clone may not hold the base; there is nothing to compare.
	echo "commit-subjects: $base is not in this clone; nothing checked"
	exit 0
fi

# Subjects that reached main after the rule, before this check stopped
# them: published history is not rewritten, so each is named here instead.
published=" e2a8bba02932e990487af147567ca891a8a66d64 da2dcf1481c91de7bb1719066837546585f64d0b ec38dc58289b687c10a328f5a4ca2344f1a78013 "

bad=0
while IFS=' ' read -r hash subject; do
	if [[ "$published" == *" $hash "* ]]; then
		continue
	fi
	if [ "${#subject}" -gt 72 ]; then
		echo "commit-subjects: ${hash:0:7}'s subject is ${#subject} characters (at most 72): $subject"
		bad=1
	fi
	if printf '%s\n' "$subject" | grep -qiE '^(wip|fixup!|squash!)|\bwip\b'; then
		echo "commit-subjects: ${hash:0:7}'s subject is a placeholder: $subject"
		bad=1
	fi
done < <(git log --format="%H %s" "$base..HEAD")
exit "$bad"

#!/bin/sh
# What the code and docs cite is in the clone: no file points at the
# project's private notes (../shared/notes/, kernel-vma.md, capture.md),
# and every docs/NAME.md or docs/man/NAME.1 that a file names exists.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	git ls-files >"$T/files"
else
	find . -type f ! -path './build*' ! -path './.git/*' | sed 's|^\./||' >"$T/files"
fi
grep -v -e '^traces/samples/.*\.lz4$' -e '^tests/trace/fuzz/corpus/' "$T/files" >"$T/text"

tr '\n' '\0' <"$T/text" | xargs -0 grep -n -e 'shared/notes' -e 'kernel-vma\.md' -e 'capture\.md' \
	-- 2>/dev/null | grep -v '^tests/build/citations\.t:' >"$T/notes"
is "$(wc -l <"$T/notes" | tr -d ' ')" 0 "nothing cites the private notes"
sed 's/^/# /' "$T/notes"

tr '\n' '\0' <"$T/text" | xargs -0 grep -oh -e 'docs/[a-z0-9-]*\.md' -e 'docs/man/[a-z0-9-]*\.1' \
	-- 2>/dev/null | sort -u >"$T/cited"
missing=
while read -r f; do
	[ -f "$f" ] || missing="$missing $f"
done <"$T/cited"
is "${missing# }" "" "every cited docs file exists ($(wc -l <"$T/cited" | tr -d ' ') cited)"
done_testing

#!/bin/sh
# No 'p = realloc(p, ...)' anywhere in the tree: when realloc fails it
# returns NULL and keeps the block, which that assignment then loses (and
# a caller that goes on with the old count walks a NULL array).  Grow into
# a temporary and keep the old block on failure (cppcheck calls the
# pattern memleakOnRealloc; this needs no cppcheck).
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
files=$(git ls-files '*.c' '*.h' 2>/dev/null)
[ -n "$files" ] || files=$(find shim traces lib replay analysis tests -name '*.[ch]')
ok "$([ -n "$files" ]; echo $?)" "the sources are found"
# shellcheck disable=SC2086
grep -nE '([A-Za-z_][A-Za-z0-9_]*(->[A-Za-z_][A-Za-z0-9_]*|\.[A-Za-z_][A-Za-z0-9_]*)*) *= *realloc\( *\1 *,' $files >"$T/hits"
is "$(cat "$T/hits")" "" "no realloc assigned over the pointer it grows"
if command -v cppcheck >/dev/null 2>&1; then
	# shellcheck disable=SC2086
	cppcheck --quiet -j2 --enable=warning --template='{file}:{line}: {id}' $files 2>&1 |
		grep memleakOnRealloc >"$T/cpp"
	is "$(cat "$T/cpp")" "" "cppcheck finds no memleakOnRealloc either"
else
	skip "cppcheck is not installed (the grep above covers the same pattern)"
fi
done_testing

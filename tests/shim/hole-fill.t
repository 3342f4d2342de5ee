#!/bin/sh
# A mapping that fills the hole between two anonymous VMAs written apart
# merges with one of them only (their anon_vmas differ): the trace names a
# page of each before the call, so replays on this kernel and in the
# simulator's host profile keep the boundary too.  Between the halves of
# one written VMA (one anon_vma) it merges with both, and the trace names
# nothing there.  (gcc's cc1 met the first case in 3 of 10 compiles.)
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$B/bin/vmrec" "$B/bin/vmreplay" "$P/hole_fill"

# PROCMAP_QUERY (6.11) tells the recorder what merged; PAGEMAP_SCAN (6.7)
# finds the page
set -- $(uname -r | tr '.-' '  ')
[ "$1" -gt 6 ] || { [ "$1" -eq 6 ] && [ "$2" -ge 11 ]; } ||
	skip_all "the recorder asks PROCMAP_QUERY, Linux 6.11 or later (this is $(uname -r))"

out=$("$B/bin/vmrec" -o "$T/t.lz4" -- "$P/hole_fill")
is "$out" PASS "the program's mappings are where it asked"
"$TC" -a "$T/t.lz4" | sed -n '/ munmap 0 0 /,$p' >"$T/calls"
is "$(grep -c '^residency .* pages 1 resident 1$' "$T/calls")" 4 \
	"a page of each neighbour of the two holes between VMAs written apart, none for the shared one"
"$B/bin/vmreplay" --strict -q "$T/t.lz4" >"$T/kernel" 2>&1
ok $? "vmreplay --strict on this kernel: every checkpoint matches"
sed 's/^/# /' "$T/kernel"
"$B/bin/vmreplay" --target sim --kernel host --strict -q "$T/t.lz4" >"$T/sim" 2>&1
ok $? "vmreplay --strict in the simulator's host profile: every checkpoint matches"
sed 's/^/# /' "$T/sim"
done_testing

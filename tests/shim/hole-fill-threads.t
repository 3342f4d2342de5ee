#!/bin/sh
# The hole between two anonymous VMAs that two other threads mapped and
# wrote, filled by a third thread, merges with one of them only (their
# anon_vmas differ): in a process that has forked while threaded the
# trace names a page of each before the call, so replays on this kernel,
# with --threads and in the simulator's host profile keep the boundary
# in the next fork child's first checkpoint and at exit.  Before the
# recorder looked past the calling thread's own mappings, the replay
# merged all three (the fork children of 4 threads mapping 64 KiB each
# met it in 2 of 20 recordings: tests/shim/order.t).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$B/bin/vmrec" "$B/bin/vmreplay" "$P/hole_fill_threads"

# PROCMAP_QUERY (6.11) tells the recorder what merged; PAGEMAP_SCAN (6.7)
# finds the page
set -- $(uname -r | tr '.-' '  ')
[ "$1" -gt 6 ] || { [ "$1" -eq 6 ] && [ "$2" -ge 11 ]; } ||
	skip_all "the recorder asks PROCMAP_QUERY, Linux 6.11 or later (this is $(uname -r))"

for how in fixed hint; do
	out=$("$B/bin/vmrec" -o "$T/$how.lz4" -- "$P/hole_fill_threads" $how)
	is "$out" PASS "$how: the program's mappings are where it asked"
	# the records right before the third thread's mmap of a page at a hint
	"$TC" -a "$T/$how.lz4" | sed -n '/ munmap 0 0 /,$p' |
		awk '/^residency / { r = r $0 "\n"; next }
		     $3 == "mmap" && $4 != "0" && $6 == "0x3" && ($7 == "0x32" || $7 == "0x22") { printf "%s", r }
		     { r = "" }' >"$T/before"
	is "$(grep -c '^residency .* pages 1 resident 1$' "$T/before")" 2 \
		"$how: a page of each neighbour, named before the third thread's call"
	for r in "" "--threads" "--target sim --kernel host"; do
		"$B/bin/vmreplay" --strict -q $r "$T/$how.lz4" >"$T/out" 2>&1
		ok $? "$how: vmreplay --strict ${r:-on this kernel}: every checkpoint matches"
		sed 's/^/# /' "$T/out"
	done
done
done_testing

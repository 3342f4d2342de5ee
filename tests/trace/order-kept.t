#!/bin/sh
# Recordings whose derived order was once impossible, kept as they were
# written (tests/trace/data/), each read with `vmtrace check` and replayed
# --strict in the simulator's host profile.
#
# threads8-64k.lz4: order.t's "8 threads, 64 KiB" config recorded under
# load.  No call could go by the search at one point; taking the one that
# ended first put a 38 ms mmap between another thread's munmap and its
# next mmap of the same range (check: "in every order the calls' times
# allow"), where a munmap in the kernel 56 ms unblocked the record that
# held the others back (vmt_order.c, unblocking).
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace R=$B/bin/vmreplay
need_built "$V" "$R"
for t in threads8-64k; do
	f=$S/tests/trace/data/$t.lz4
	out=$("$V" check "$f" 2>&1)
	rc=$?
	ok "$rc" "$t: vmtrace check OK"
	[ "$rc" -eq 0 ] || diag "$(echo "$out" | head -n 3)"
	out=$("$R" --strict --target sim --kernel host "$f" 2>&1 >/dev/null)
	rc=$?
	ok "$rc" "$t: replays --strict in the host profile"
	[ "$rc" -eq 0 ] || diag "$(echo "$out" | tail -n 3)"
done
done_testing

#!/bin/sh
# Cached unwinding: one function reached alternately from two callers (same
# ip, same stack pointer, different return address above it) gets the two
# right stacks every time, as a fresh unwind would.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
[ -e /usr/lib/x86_64-linux-gnu/libunwind.so.8 ] || skip_all "libunwind not installed"

out=$("$B/bin/vmrec" -o "$T/s.lz4" --stacks=4 -- "$P/stack_paths")
is "$out" PASS "the program runs with stacks on"
# the caller under common() for each mmap, in order
"$B/bin/vmtrace" dump -k "$T/s.lz4" | awk '
	/^[0-9]+ +mmap\(NULL, 4096, PROT_READ,/ { want = 3; next }
	/^ > / && want { if (--want == 0) { sub(/.*\(/, ""); sub(/\+.*/, ""); print } ; next }
	{ want = 0 }' >"$T/callers"
i=0; : >"$T/want"
while [ $i -lt 20 ]; do
	[ $((i % 2)) = 0 ] && echo via_a >>"$T/want" || echo via_b >>"$T/want"
	i=$((i + 1))
done
is_file "$T/callers" "$T/want" "each mmap names the caller that made it"
done_testing

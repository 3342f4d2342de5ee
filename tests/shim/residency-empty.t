#!/bin/sh
# Released thread stacks: the recorder skips the page-table scan of a range
# it knows holds no page (released before, no page fault in the process
# since), and records exactly what a scan of every range records - the
# page a thread wrote deep in its own stack, and the page the main thread
# wrote into another thread's deep buffer (a fault of another thread).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"

releases() {   # per release madvise: the residency record before it
	"$TC" -a "$1" | awk '$1 == "residency" { r = "pages " $5 " resident " $7; next }
	                     $3 == "madvise" && $6 == "0x4" { print "madvise", (r ? r : "none"); r = "" }'
}

is "$(record "$T/known.lz4" "$P/stack_release")" "PASS" "runs as natively when recorded"
is "$(VMREC_RESIDENCY=scan record "$T/scan.lz4" "$P/stack_release")" "PASS" "runs with a scan of every range"
releases "$T/known.lz4" >"$T/known"
releases "$T/scan.lz4" >"$T/scan"
is_file "$T/known" "$T/scan" "the same residency records as scanning every released stack"
# under ASan, its interceptors touch every thread's stack and fault shadow
# pages all the time: more pages are resident, and no range is trusted
asan=$(carries_asan "$P/stack_release" && echo 1)
if [ -z "$asan" ]; then
	is "$(grep -c 'resident [1-9]' "$T/scan")" 2 "both deep writes are recorded (the check above can fail)"
else
	skip "stack_release built with AddressSanitizer: its interceptors write the stacks too"
fi
is "$(wc -l <"$T/known")" 9 "nine threads, nine releases"

if [ -n "$asan" ]; then
	skip "stack_release built with AddressSanitizer: shadow faults leave no range trusted"
elif have_strace; then
	scans() { strace -f -qq -e trace=ioctl -o "$T/st" env "$@" >/dev/null 2>&1; grep -c 'ioctl(.*0x66, 0x10' "$T/st"; }
	known=$(scans LD_PRELOAD="$LIB" VMREC_OUT="$T/s1.lz4" "$P/stack_release")
	scan=$(scans LD_PRELOAD="$LIB" VMREC_OUT="$T/s2.lz4" VMREC_RESIDENCY=scan "$P/stack_release")
	test "$known" -lt "$scan"
	ok $? "fewer page-table scans when known-empty ranges are trusted ($known against $scan)"
else
	skip "strace cannot trace here"
fi
done_testing

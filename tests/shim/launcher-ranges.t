#!/bin/sh
# The launcher records a call whose ranges are in memory as libvmrec
# does, through the same capture.c and the table's `ranges` and
# `residency` columns: process_madvise's iovec and prctl(PR_SET_VMA)'s
# name in a RANGES record before the event, and the pages of each of
# process_madvise's ranges (its own pidfd, which the record names)
# resident before it.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec
SR=$B/tests/shim/static_ranges
need_built "$V" "$SR"
file "$SR" 2>/dev/null | grep -q 'statically linked' || skip_all "no static libc to build with"
cd "$T" || exit 1

native=$("$SR" 2>&1); nst=$?
out=$("$V" -o r.lz4 -- "$SR" 2>err); st=$?
is "$out:$st" "$native:$nst" "the program prints and exits as natively"
is "$(cat err)" "" "nothing on stderr"
"$TC" -a r.lz4 >all.txt
ok $? "the trace reads"
like "$(grep ' process_madvise ' all.txt)" ' = 0x3000 LAUNCHER' "process_madvise is the launcher's, its result recorded"
# the record right before the event: its two ranges
pm=$(grep -B1 ' process_madvise ' all.txt | head -1)
printf '%s\n' "$pm" | grep -Eq '^ranges ([0-9]+) seq [0-9]+ kind 1 n 2 0x[0-9a-f]+\+0x1000 0x[0-9a-f]+\+0x2000 target \1$'
ok $? "its RANGES record, the iovec's two ranges and the pidfd's process (its own, format 6), right before it"
note "$pm"
pages=$(grep -B3 ' process_madvise ' all.txt | awk '/^residency/ { printf "%s/%s ", $5, $7 }')
is "$pages" "1/1 2/2 " "each range's pages asked resident before it (1 of 1, 2 of 2)"
nm=$(grep -B1 ' prctl 0x53564d41 ' all.txt | head -1)
printf '%s\n' "$nm" | grep -Eq '^ranges [0-9]+ seq [0-9]+ kind 4 n 0 name 1 vmrec-ranges$'
ok $? "prctl(PR_SET_VMA)'s RANGES record names the mapping"
note "$nm"
like "$("$B/bin/vmtrace" check r.lz4)" "OK: " "the trace checks OK"
done_testing

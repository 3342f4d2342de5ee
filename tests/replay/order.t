#!/bin/sh
# Calls of two threads that overlapped in time replay in the order the
# trace library derives (docs/trace-format.md, "Order"), the same on the
# kernel, with --threads and in the simulator: the holder's munmap comes
# before the other thread's mmap given the same range, so every call
# succeeds as recorded (entry order replayed the second mmap onto a range
# still mapped: EEXIST).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x100000 3 0x22 -1 0 = 0x7f0000000000 tid=101 seq=10 end=30
ev 100 mmap 0 0x100000 3 0x22 -1 0 = 0x7f0000000000 tid=102 seq=11 end=12
ev 100 mprotect 0x7f0000000000 0x1000 1 0 0 0 = 0 tid=102 seq=13 end=14
ev 100 munmap 0x7f0000000000 0x100000 0 0 0 0 = 0 tid=102 seq=15 end=16
ev 100 mprotect 0x7f0000000000 0x1000 1 0 0 0 = 0 tid=101 seq=31 end=32
ev 100 munmap 0x7f0000000000 0x100000 0 0 0 0 = 0 tid=101 seq=33 end=34
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000200000 tid=101 seq=35 end=36
ev 100 munmap 0x7f0000200000 0x2000 0 0 0 0 = 0 tid=101 seq=37 end=60
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000200000 tid=102 seq=38 end=39
ck 100 3 7 1 seq=70
EOF2
} | mk overlap
for how in "" "--threads" "--target sim --kernel host"; do
	"$V" -q --strict --per-event --json "$T/o.json" $how "$T/overlap.vmt" >"$T/out" 2>&1
	is "$?:$(cat "$T/out")" "0:" "vmreplay --strict $how: every call as recorded, the checkpoint matches"
	per_event "$T/o.json" | awk '{ print $2, $5 }' | sort | uniq -c | sed 's/^ *//' >"$T/got"
	printf '4 mmap ok\n2 mprotect ok\n3 munmap ok\n' >"$T/want"
	is_file "$T/got" "$T/want" "vmreplay $how: no call differs from its recording"
done
done_testing

#!/bin/sh
# The address map follows the recorded ranges as calls cut them: mprotect of
# a middle part, partial munmap, mremap move then munmap of the moved range.
# Same outcomes in both placement modes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x4000 3 0x22 -1 0 = 0x20000000
ev 100 mprotect 0x20001000 0x2000 1 0 0 0 = 0
ev 100 munmap 0x20002000 0x1000 0 0 0 0 = 0
ev 100 munmap 0x20003000 0x1000 0 0 0 0 = 0
ev 100 munmap 0x20000000 0x1800 0 0 0 0 = 0
ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x21000000
ev 100 mremap 0x21001000 0x1000 0x1000 3 0x22000000 0 = 0x22000000
ev 100 munmap 0x22000000 0x1000 0 0 0 0 = 0
ev 100 mprotect 0x21000000 0x1000 1 0 0 0 = 0
ck 100 4 8 1
EOF2
} | mk splits

cat >"$T/want" <<'EOF2'
100 mmap new 6 ok
100 mprotect split 8 ok
100 munmap shrink 8 ok
100 munmap remove 7 ok
100 munmap remove 5 ok
100 mmap new 6 ok
100 mremap move 8 ok
100 munmap remove 7 ok
100 mprotect unchanged 7 ok
EOF2
for mode in recorded kernel; do
	"$V" -q --strict --placement $mode --per-event --json "$T/$mode.json" "$T/splits.vmt"
	ok $? "$mode: checkpoints match"
	per_event "$T/$mode.json" >"$T/got"
	is_file "$T/got" "$T/want" "$mode: outcome and VMA count of every call"
done
# the same through /proc/self/maps, for kernels before 6.11
VMREPLAY_NO_PROCMAP_QUERY=1 "$V" -q --strict --per-event --json "$T/maps.json" "$T/splits.vmt"
ok $? "/proc/self/maps fallback: checkpoints match"
per_event "$T/maps.json" >"$T/got"
is_file "$T/got" "$T/want" "/proc/self/maps fallback: outcome and VMA count of every call"
if command -v strace >/dev/null; then
	n=$(VMREPLAY_NO_PROCMAP_QUERY=1 ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=ioctl "$V" -q "$T/splits.vmt" 2>&1 | grep -c "_IOC(_IOC_READ|_IOC_WRITE, 0x66, 0x11\|PROCMAP_QUERY")
	is "$n" 0 "the fallback issues no PROCMAP_QUERY"
	n=$(ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=ioctl "$V" -q "$T/splits.vmt" 2>&1 | grep -c "_IOC(_IOC_READ|_IOC_WRITE, 0x66, 0x11\|PROCMAP_QUERY")
	[ "$n" -gt 0 ]
	ok $? "by default PROCMAP_QUERY answers ($n queries)"
fi
done_testing

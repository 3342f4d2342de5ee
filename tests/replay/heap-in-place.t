#!/bin/sh
# The replayed heap starts where the recorded one did (its image's offset
# added), beside the recorded neighbours: the break is moved there with
# PR_SET_MM_MAP.  Where that is refused (VMREPLAY_OWN_BREAK=1 says so) the
# heap grows from the replayer's own break and brk addresses translate by
# that difference instead.  A heap the program split replays split.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

# "pid result-recorded_result" of every brk
brk_deltas() {
	"$PYTHON" -c '
import json, sys
for e in json.load(open(sys.argv[1]))["per_event"]:
    if e["op"] == "brk":
        print(e["pid"], hex(e["result"] - e["recorded_result"]))
' "$1"
}

brks() { cat <<'EOF2'
ev 100 brk 0 0 0 0 0 0 = 0x10102000
ev 100 brk 0x10105000 0 0 0 0 0 = 0x10105000
ev 100 brk 0x10103000 0 0 0 0 0 = 0x10103000
EOF2
}

{ base_map; brks; echo "ck 100 4 6 1"; } | mk heap
VMREPLAY_DUMP_MAPS=1 "$V" -q --strict --per-event --json "$T/in.json" "$T/heap.vmt" 2>"$T/maps"
ok $? "in place: checkpoints match"
is "$(brk_deltas "$T/in.json" | sort -u)" "100 0x0" "in place: every brk answers the recorded address"
grep -q '^10100000-10103000 rw-p .*\[heap\]' "$T/maps"
ok $? "in place: the kernel's [heap] is the recorded range"

# a range below mmap_min_addr moves the whole image by 1 GiB: the heap too
{ sed 's/^map 100$/map 100\nvma 0x1000 0x2000 r-- low/; s/^ck 100 1 6 1$/ck 100 1 7 1/' <<EOF2
$(base_map)
EOF2
brks; echo "ck 100 4 7 1"; } | mk moved
"$V" -q --strict --per-event --json "$T/moved.json" "$T/moved.vmt"
ok $? "moved image: checkpoints match"
is "$(brk_deltas "$T/moved.json" | sort -u)" "100 0x40000000" "moved image: the heap moves with it"

VMREPLAY_OWN_BREAK=1 "$V" -q --strict --per-event --json "$T/own.json" "$T/heap.vmt"
ok $? "own break: checkpoints match"
is "$(brk_deltas "$T/own.json" | sort -u | wc -l)" 1 "own break: one delta for every brk"
test "$(brk_deltas "$T/own.json" | sort -u)" != "100 0x0"
ok $? "own break: the heap is not at the recorded address"

# a heap split by mprotect: three [heap] VMAs, the last removed by a shrink
cat <<'EOF2' | mk split
process 100 1 0
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x10001000 0x10003000 rw-
vma 0x10100000 0x10102000 rw- [heap]
vma 0x10102000 0x10103000 r-- [heap]
vma 0x10103000 0x10104000 rw- [heap]
vma 0x30000000 0x30021000 rw- [stack]
end
ck 100 1 6 0
ev 100 brk 0 0 0 0 0 0 = 0x10104000
ev 100 brk 0x10103000 0 0 0 0 0 = 0x10103000
ck 100 4 5 0
EOF2
for target in kernel sim; do
	"$V" -q --strict --target $target --per-event --json "$T/split-$target.json" "$T/split.vmt"
	ok $? "$target: a split heap replays split"
	per_event "$T/split-$target.json" >"$T/got-$target"
done
is_file "$T/got-kernel" "$T/got-sim" "split heap: kernel and simulator agree event by event"
done_testing

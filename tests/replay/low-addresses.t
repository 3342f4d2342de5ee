#!/bin/sh
# Calls that name a low address (MAP_FIXED, MREMAP_FIXED below 4 GiB, down
# to address 0 below mmap_min_addr) replay at that address when the
# replayer's own memory leaves it free: mseal_test's mmap(NULL, ...,
# MAP_FIXED) and mremap(..., MREMAP_FIXED, NULL) were issued 1 GiB higher
# and reported "0 mismatches".  Every event reports the offset the replay
# applied to it; a low call that had to move is counted as moved and fails
# --strict.  A call the replay skips carries no errno or result of its own.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

# "op offset moved errno result" per event
rows() {
	"$PYTHON" -c '
import json, sys
for e in json.load(open(sys.argv[1]))["per_event"]:
    print(e["op"], e["outcome"], e["offset"], e["moved"], e["errno"], e["result"])
' "$1"
}

# mmap at 0 (CAP_SYS_RAWIO), at 16 MiB, and a move to 0
{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x4000 0 0x32 -1 0 = 0
ev 100 mmap 0x1000000 0x2000 3 0x32 -1 0 = 0x1000000
ev 100 munmap 0 0x4000 0 0 0 0 = 0
ev 100 mremap 0x1000000 0x2000 0x2000 3 0 0 = 0
ck 100 4 7 1
EOF2
} | mk low
if [ "$(id -u)" = 0 ]; then
	"$V" -q --strict --per-event --json "$T/low.json" "$T/low.vmt"
	ok $? "as recorded: --strict passes"
	cat >"$T/want" <<'EOF2'
mmap new 0 False 0 0
mmap new 0 False 0 16777216
munmap remove 0 False 0 0
mremap move 0 False 0 0
EOF2
	rows "$T/low.json" >"$T/got"
	is_file "$T/got" "$T/want" "MAP_FIXED at 0 and 16 MiB, MREMAP_FIXED to 0: at their addresses, offset 0"
else
	skip "not root: no CAP_SYS_RAWIO to map below mmap_min_addr"
	skip "(the same)"
fi

# an image with a VMA below mmap_min_addr moves by 1 GiB; a MAP_FIXED call
# at 16 MiB goes with it: moved, and --strict fails
{ sed 's/^map 100$/map 100\nvma 0x1000 0x2000 r-- low/; s/^ck 100 1 6 1$/ck 100 1 7 1/' <<EOF2
$(base_map)
EOF2
cat <<'EOF2'
ev 100 mmap 0x1000000 0x2000 3 0x32 -1 0 = 0x1000000
ev 100 mprotect 0x1000000 0x1000 1 0 0 0 = 0
ck 100 4 9 1
EOF2
} | mk moved
"$V" --strict --per-event --json "$T/moved.json" "$T/moved.vmt" >"$T/out" 2>&1
is $? 1 "a low MAP_FIXED that could not keep its address: --strict fails"
is "$(grep '^fidelity' "$T/out")" "fidelity: checkpoints matched 2/2, result mismatches 0, skipped 0, unplaceable 0, moved 1" \
   "the fidelity summary counts it as moved"
printf 'mmap new 1073741824 True 0 1090519040\nmprotect split 1073741824 False 0 0\n' >"$T/want"
rows "$T/moved.json" >"$T/got"
is_file "$T/got" "$T/want" "per event: the offset applied, moved for the call that named its address"
is "$(metric "$T/moved.json" vmreplay.fidelity.moved_events)" 1 "vmreplay.fidelity.moved_events"

# an mseal whose length overflows the address space is skipped here (it
# would reach memory the replay does not own): no errno, no result
{ base_map; cat <<'EOF2'
ev 100 mseal 0x10000000 4503599627370495 0 0 0 0 = -1 err=12
ck 100 4 6 1
EOF2
} | mk skip
"$V" -q --per-event --json "$T/skip.json" "$T/skip.vmt" 2>/dev/null
is "$(rows "$T/skip.json")" "mseal skipped None False None None" "a skipped call carries no errno or result of its own"
is "$("$PYTHON" -c 'import json,sys; e=json.load(open(sys.argv[1]))["per_event"][0]; print(e["recorded_errno"])' "$T/skip.json")" 12 \
   "the recorded errno stays in recorded_errno"
# the simulator replays it (no memory to protect) and reports offset 0
"$V" -q --target sim --kernel 6.18 --per-event --json "$T/sim.json" "$T/skip.vmt" 2>/dev/null
is "$(rows "$T/sim.json")" "mseal failed 0 False 12 -1" "the simulator: failed with ENOMEM, offset 0"
done_testing

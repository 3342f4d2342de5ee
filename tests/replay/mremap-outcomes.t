#!/bin/sh
# mremap outcomes name what the moved range did at its destination
# (move: with neither neighbour, move_prev, move_next, move_both) and what
# a growth in place did (grow, grow_next), the same on this kernel and in
# the simulator; the merge totals keep "move" as the sum of every move.
# merge.c of the kernel's selftests asserts 16 of its 27 merge states with
# mremap; vmreplay.merge.move alone could not tell them apart.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0x20000000 0x4000 3 0x32 -1 0 = 0x20000000
ev 100 mmap 0x20100000 0x2000 3 0x32 -1 0 = 0x20100000
ev 100 mremap 0x20100000 0x2000 0x2000 3 0x20004000 0 = 0x20004000
ev 100 mmap 0x20300000 0x4000 3 0x32 -1 0 = 0x20300000
ev 100 mmap 0x20400000 0x2000 3 0x32 -1 0 = 0x20400000
ev 100 mremap 0x20400000 0x2000 0x2000 3 0x202fe000 0 = 0x202fe000
ev 100 mmap 0x20500000 0x2000 3 0x32 -1 0 = 0x20500000
ev 100 mmap 0x20503000 0x2000 3 0x32 -1 0 = 0x20503000
ev 100 mmap 0x20600000 0x1000 3 0x32 -1 0 = 0x20600000
ev 100 mremap 0x20600000 0x1000 0x1000 3 0x20502000 0 = 0x20502000
ev 100 mmap 0x20700000 0x1000 3 0x32 -1 0 = 0x20700000
ev 100 mremap 0x20700000 0x1000 0x1000 3 0x20800000 0 = 0x20800000
ev 100 mmap 0x20900000 0x1000 3 0x32 -1 0 = 0x20900000
ev 100 mremap 0x20900000 0x1000 0x2000 0 0 0 = 0x20900000
ev 100 mmap 0x20a00000 0x1000 3 0x32 -1 0 = 0x20a00000
ev 100 mmap 0x20a02000 0x1000 3 0x32 -1 0 = 0x20a02000
ev 100 mremap 0x20a00000 0x1000 0x2000 0 0 0 = 0x20a00000
ev 100 mremap 0x20a00000 0x3000 0x1000 0 0 0 = 0x20a00000
ck 100 4 12 1
EOF2
} | mk remaps

outcomes() { "$PYTHON" -c '
import json, sys
print(" ".join(e["outcome"] for e in json.load(open(sys.argv[1]))["per_event"] if e["op"] == "mremap"))
' "$1"; }
want="move_prev move_next move_both move grow grow_next shrink"
"$V" -q --strict --per-event --json "$T/k.json" "$T/remaps.vmt"
ok $? "this kernel: replayed as recorded"
is "$(outcomes "$T/k.json")" "$want" "this kernel: each mremap names what it merged with"
"$V" -q --target sim --kernel host --per-event --json "$T/s.json" "$T/remaps.vmt"
is "$(outcomes "$T/s.json")" "$want" "the simulator: the same names"
"$PYTHON" "$S/tests/replay/agree_cmp.py" "$T/k.json" "$T/s.json" >"$T/cmp"
ok $? "both back ends: the same outcome and VMA count for every event ($(tail -n 1 "$T/cmp"))"
for k in move move_prev move_next move_both grow grow_next; do
	printf '%s=%s ' "$k" "$(metric "$T/k.json" vmreplay.merge.$k)"
done >"$T/got"
is "$(cat "$T/got")" "move=4 move_prev=1 move_next=1 move_both=1 grow=1 grow_next=1 " \
   "merge totals: move counts every move, the move_* kinds their parts"
"$V" --target sim --kernel 6.1 "$T/remaps.vmt" | grep '^merge:' >"$T/line"
grep -q ' move 4 ' "$T/line"
ok $? "the summary line's move is every move: $(cat "$T/line")"
done_testing

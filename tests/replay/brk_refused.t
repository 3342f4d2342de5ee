#!/bin/sh
# A refused brk answers the old break and changes no VMA: its outcome is
# `unchanged` (as in the simulator), not the grow or shrink it asked for:
# a grow past the address space, shrinks below the heap's start.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 brk 0 0 0 0 0 0 = 0x10102000
ev 100 brk 0x7ffffffff000 0 0 0 0 0 = 0x10102000
ev 100 brk 0x10000000 0 0 0 0 0 = 0x10102000
ev 100 brk 0x10104000 0 0 0 0 0 = 0x10104000
ev 100 brk 0x10000000 0 0 0 0 0 = 0x10104000
ck 100 4 6 1
EOF2
} | mk refused

cat >"$T/want" <<'EOF2'
100 brk unchanged 5 ok
100 brk unchanged 5 ok
100 brk unchanged 5 ok
100 brk expand_prev 5 ok
100 brk unchanged 5 ok
EOF2
for target in kernel sim; do
	"$V" -q --strict --target $target --per-event --json "$T/$target.json" "$T/refused.vmt"
	ok $? "$target: checkpoints match"
	per_event "$T/$target.json" >"$T/got"
	is_file "$T/got" "$T/want" "$target: refused grow and refused shrink are unchanged"
done
done_testing

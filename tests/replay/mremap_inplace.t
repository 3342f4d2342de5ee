#!/bin/sh
# An mremap names what it did on replay, not what it did when recorded: one
# that moved when recorded but grows in place here is `grow`, with
# the VMA count the kernel shows.  (--placement kernel: a move not forced
# by MREMAP_FIXED is left to this kernel.)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0x20000000 0x1000 3 0x32 -1 0 = 0x20000000
ev 100 mremap 0x20000000 0x1000 0x3000 1 0 0 = 0x23000000
ev 100 munmap 0x23000000 0x3000 0 0 0 0 = 0
EOF2
} | mk moved

cat >"$T/want" <<'EOF2'
100 mmap new 6 ok
100 mremap grow 6 ok
100 munmap remove 5 ok
EOF2
"$V" -q --placement kernel --per-event --json "$T/k.json" "$T/moved.vmt"
ok $? "replays"
per_event "$T/k.json" >"$T/got"
is_file "$T/got" "$T/want" "grown in place on replay: grow, and the VMA count follows"
done_testing

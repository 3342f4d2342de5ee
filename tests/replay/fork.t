#!/bin/sh
# Each recorded process is replayed by its own process, forked at the
# recorded fork, and events of different processes run in the recorded
# global order.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x20000000
ev 100 fork 0 0 0 0 0 0 = 101
process 101 100 0
ck 101 5 7 1
ev 100 mmap 0 0x2000 1 0x22 -1 0 = 0x21000000
ev 101 mprotect 0x20000000 0x1000 1 0 0 0 = 0
ev 101 fork 0 0 0 0 0 0 = 102
process 102 101 0
ev 102 munmap 0x20000000 0x2000 0 0 0 0 = 0
ev 101 mmap 0 0x1000 3 0x22 -1 0 = 0x22000000
ck 101 4 9 1
ev 100 munmap 0x20000000 0x2000 0 0 0 0 = 0
ev 102 exit_group 0 0 0 0 0 0 = 0 noreturn
ck 102 3 6 1
ev 101 exit_group 0 0 0 0 0 0 = 0 noreturn
ck 101 3 9 1
ck 100 3 7 1
EOF2
} | mk tree

"$V" -q --strict --per-event --json "$T/o.json" "$T/tree.vmt"
ok $? "every checkpoint of the three processes matches"
per_event "$T/o.json" >"$T/got"
cat >"$T/want" <<'EOF2'
100 mmap new 6 ok
100 fork unchanged 6 ok
100 mmap new 7 ok
101 mprotect split 7 ok
101 fork unchanged 7 ok
102 munmap remove 5 ok
101 mmap new 8 ok
100 munmap remove 6 ok
102 exit_group skipped 5 ok
101 exit_group skipped 8 ok
EOF2
is_file "$T/got" "$T/want" "outcomes and VMA counts per process"
order=$("$PYTHON" -c 'import json,sys; print(" ".join(str(e["order"]) for e in json.load(open(sys.argv[1]))["per_event"]))' "$T/o.json")
is "$order" "1 2 3 4 5 6 7 8 9 10" "replayed in the recorded global order"
done_testing

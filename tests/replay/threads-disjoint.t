#!/bin/sh
# --threads: two threads of one process working on disjoint ranges replay
# concurrently with every call done and every result as recorded; the
# checkpoint after both matches (--strict).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map
echo "ev 100 clone 0x3d0f00 0 0 0 0 0 = 101 thread"
for i in 0 1 2 3 4 5 6 7 8 9; do
	for t in 100 101; do
		a=$(( (t == 100 ? 0x20000000 : 0x28000000) + i * 0x10000 ))
		printf 'ev 100 mmap 0 0x3000 3 0x22 -1 0 = %#x tid=%s\n' $a $t
		printf 'ev 100 mprotect %#x 0x1000 1 0 0 0 = 0 tid=%s\n' $((a + 0x1000)) $t
		printf 'ev 100 munmap %#x 0x1000 0 0 0 0 = 0 tid=%s\n' $((a + 0x2000)) $t
	done
done
echo "ck 100 3 46 1"
} | mk two

{ echo "100 clone skipped ok"
for i in $(seq 20); do printf '100 mmap new ok\n100 mprotect split ok\n100 munmap remove ok\n'; done
} >"$T/want"

"$V" -q --strict --threads --per-event --json "$T/o.json" "$T/two.vmt"
ok $? "--threads --strict: the checkpoint matches and no result differs"
"$PYTHON" -c '
import json, sys
for e in json.load(open(sys.argv[1]))["per_event"]:
    print(e["pid"], e["op"], e["outcome"], "MISMATCH" if e["mismatch"] else "ok")
' "$T/o.json" >"$T/got"
is_file "$T/got" "$T/want" "every call done, with the recorded outcome"
orders=$("$PYTHON" -c '
import json, sys
print(sorted(e["order"] for e in json.load(open(sys.argv[1]))["per_event"]) == list(range(1, 62)))
' "$T/o.json")
is "$orders" True "the replay's own order numbers each of the 61 calls once"
is "$(metric "$T/o.json" vmreplay.vma_count.final)" 45 "final VMA count"
done_testing

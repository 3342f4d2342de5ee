#!/bin/sh
# --threads: a program that makes 300 short-lived threads one after another;
# each thread's replayer thread starts at its recorded clone, and every call
# is replayed with the recorded result.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map
i=0
while [ $i -lt 300 ]; do
	tid=$((1000 + i)) a=$((0x20000000 + i * 0x10000))
	echo "ev 100 clone 0x3d0f00 0 0 0 0 0 = $tid thread"
	printf 'ev 100 mmap 0 0x2000 3 0x22 -1 0 = %#x tid=%s\n' $a $tid
	printf 'ev 100 mprotect %#x 0x1000 1 0 0 0 = 0 tid=%s\n' $a $tid
	echo "ev 100 exit 0 0 0 0 0 0 = 0 tid=$tid noreturn"
	i=$((i + 1))
done
echo "ck 100 3 606 1"
} | mk churn

"$V" -q --strict --threads --per-event --json "$T/o.json" "$T/churn.vmt" 2>"$T/err"
ok $? "--threads --strict: 300 threads, the checkpoint matches"
is "$(cat "$T/err")" "" "no thread left out"
is "$("$PYTHON" -c '
import json, sys
from collections import Counter
print(sorted(Counter((e["op"], e["outcome"]) for e in json.load(open(sys.argv[1]))["per_event"]).items()))
' "$T/o.json")" "[(('clone', 'skipped'), 300), (('exit', 'skipped'), 300), (('mmap', 'new'), 300), (('mprotect', 'split'), 300)]" "every call replayed"
done_testing

#!/bin/sh
# --json writes the documented schema (docs/results-schema.md): checked by
# tests/replay/check_results.py; --repeat gives one value per run, --loop
# replays the trace N times per run.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
CHECK="$PYTHON $(dirname "$0")/check_results.py"

{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000
ev 100 mprotect 0x20001000 0x1000 1 0 0 0 = 0
ev 100 brk 0 0 0 0 0 0 = 0x10102000
ck 100 4 9 1
EOF2
} | mk j

"$V" -q --json "$T/1.json" "$T/j.vmt"
$CHECK "$T/1.json" 1
ok $? "one run: schema"
"$V" -q --repeat 3 --loop 2 --per-event --json "$T/3.json" "$T/j.vmt"
$CHECK "$T/3.json" 3 per_event
ok $? "--repeat 3 --per-event: schema"
is "$(metric "$T/3.json" vmreplay.events)" "6 6 6" "--loop 2: each run replays the trace twice"
is "$(metric "$T/3.json" vmreplay.fidelity.checkpoints_matched)" "4 4 4" "checkpoints of every loop counted"
is "$(metric "$T/3.json" vmreplay.merge.split)" "2 2 2" "merge outcome counts"
is "$(metric "$T/3.json" vmreplay.vma_count.final)" "8 8 8" "final VMA count"
is "$("$PYTHON" -c 'import json,sys; print(json.load(open(sys.argv[1]))["per_event"][0]["call"])' "$T/3.json")" \
   "mmap(NULL, 12288, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x20000000" "per-event call in strace form"

"$V" -q --duration 0.2 --json "$T/d.json" "$T/j.vmt"
loops=$(metric "$T/d.json" vmreplay.loops)
[ "$loops" -ge 1 ]
ok $? "--duration loops the trace ($loops loops)"

if "$V" -q --target sim --kernel host --per-event --json "$T/s.json" "$T/j.vmt"; then
	$CHECK "$T/s.json" 1 per_event
	ok $? "--target sim: schema, with rules"
	is "$("$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["target"], d["kernel"] != "")' "$T/s.json")" "sim True" "--target sim: target and profile"
else
	ok 1 "--target sim ran"
fi
done_testing

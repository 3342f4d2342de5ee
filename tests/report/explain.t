#!/bin/sh
# --explain: the first events where merge outcome or VMA count differ, in
# strace form, with the simulator's rule; how many; when it cannot compare.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data E=tests/report/expected

"$R" --no-stacks --explain=3 "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" "$D/churn-sim-6.8-noevents.json" >"$T/out" 2>&1
is "$?" 0 "--explain=3: exit status 0"
is_file "$T/out" "$E/explain3.txt" "--explain=3: three events, and a file without per_event named"

"$R" --no-stacks --explain "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >"$T/out" 2>&1
is_file "$T/out" "$E/explain-default.txt" "--explain: the default 5 of 7 differing events, with what each did to the count"

"$R" --no-stacks -f markdown --explain=2 "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >"$T/out" 2>&1
is_file "$T/out" "$E/explain2.md" "--explain in markdown"

"$R" --no-stacks --explain "$D/churn-sim-6.1.json" "$D/churn-sim-6.1.json" | grep '^explain:' >"$T/out"
is "$(cat "$T/out")" "explain: sim:6.1 against sim:6.1 (#2, $D/churn-sim-6.1.json): all 13 events agree" \
   "identical results: all events agree"

"$R" --no-stacks --explain --any-trace "$D/churn-sim-6.1.json" "$D/brk-6.1.json" 2>/dev/null | grep '^explain:' >"$T/out"
is "$(cat "$T/out")" "explain: 6.1.0-28-amd64 against sim:6.1 (#2, $D/brk-6.1.json): results of another trace: events cannot be compared" \
   "another trace: said, no events compared"

"$R" --no-stacks --explain=0 "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" 2>"$T/err"
is "$?" 2 "--explain=0: usage error"
is "$(cat "$T/err")" "vmreport: --explain=0: expected a count from 1 to 100000 (vmreport --help)" "--explain=0: message"

"$R" --no-stacks --explain -f json "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >"$T/j"
is "$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["explain"][0]; f=e["first"][3]; print(e["events_differing"], e["events_compared"], e["events_ending_with_another_vma_count"], [x["i"] for x in e["first"]], f["base"]["vma_delta"], f["other"]["vma_delta"], f["other"]["rule"])' "$T/j")" \
   "7 13 4 [2, 3, 4, 5, 6] 2 1 mprotect inside a VMA: split" "--explain in JSON"

"$R" --no-stacks --explain=9 "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" | tail -4 >"$T/out"
printf '%s\n' "  event 12: mmap(0x7f3a00000000, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE, -1, 0) = 0x7f3a00000000" \
	"    sim:6.1          new         vma_count 31 (+1)   rule: no compatible neighbour" \
	"    sim:6.8          failed      vma_count 30 (+0)   errno EEXIST  rule: MAP_FIXED_NOREPLACE: range overlaps a VMA" \
	"                     mmap(0x7f3a00000000, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_FIXED_NOREPLACE, -1, 0) = -1 EEXIST (File exists)" >"$T/want"
is_file "$T/out" "$T/want" "a failed call: errno by name, and the other side's own strace line"

# results as vmreplay writes them (captured from vmreplay --target sim --per-event)
"$R" --no-stacks --explain=2 "$D/vmreplay-churn-sim-6.1.json" "$D/vmreplay-churn-sim-6.8.json" >"$T/out" 2>&1
is "$?" 0 "vmreplay's own results: exit status 0"
is_file "$T/out" "$E/vmreplay-explain2.txt" "vmreplay's own results: one extra VMA per thread stack in 6.8, the later counts follow"

done_testing

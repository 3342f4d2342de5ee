#!/bin/sh
# --explain: the first events where merge outcome or VMA count differ, in
# strace form, with the simulator's rule; how many; when it cannot compare.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data E=tests/report/expected

"$R" --explain=3 "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" "$D/churn-sim-6.8-noevents.json" >"$T/out" 2>&1
is "$?" 0 "--explain=3: exit status 0"
is_file "$T/out" "$E/explain3.txt" "--explain=3: three events, and a file without per_event named"

"$R" --explain "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >"$T/out" 2>&1
is_file "$T/out" "$E/explain-default.txt" "--explain: all 4 differing events (default 5), errno and the other side's call"

"$R" -f markdown --explain=2 "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >"$T/out" 2>&1
is_file "$T/out" "$E/explain2.md" "--explain in markdown"

"$R" --explain "$D/churn-sim-6.1.json" "$D/churn-sim-6.1.json" | grep '^explain:' >"$T/out"
is "$(cat "$T/out")" "explain: sim:6.1 against sim:6.1 (#2, $D/churn-sim-6.1.json): all 13 events agree" \
   "identical results: all events agree"

"$R" --explain --any-trace "$D/churn-sim-6.1.json" "$D/brk-6.1.json" 2>/dev/null | grep '^explain:' >"$T/out"
is "$(cat "$T/out")" "explain: 6.1.0-28-amd64 against sim:6.1 (#2, $D/brk-6.1.json): results of another trace: events cannot be compared" \
   "another trace: said, no events compared"

"$R" --explain=0 "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" 2>"$T/err"
is "$?" 2 "--explain=0: usage error"
is "$(cat "$T/err")" "vmreport: --explain=0: expected a count from 1 to 100000 (vmreport --help)" "--explain=0: message"

"$R" --explain -f json "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >"$T/j"
is "$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["explain"][0]; f=e["first"][3]; print(e["events_differing"], e["events_compared"], [x["i"] for x in e["first"]], f["other"]["outcome"], f["other"]["errno"], f["base"]["rule"])' "$T/j")" \
   "4 13 [2, 4, 6, 12] failed 17 no compatible neighbour" "--explain in JSON"

done_testing

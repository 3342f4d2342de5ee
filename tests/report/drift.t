#!/bin/sh
# Drift: the test assumes independent runs; a column whose first and last
# half of runs differ by more than its spread (the machine's load changed
# while it ran) gets a warning.  Data: 24 consecutive runs of one real
# batch (tests/report/data/README.md): the first 12 steady, in the last 12
# brk's latency jumps by a third after the fifth.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data

python3 tests/report/split-runs.py "$D/drift-brk-24.json" "$T" first
"$R" "$T/a-first.json" "$T/b-first.json" >"$T/out" 2>"$T/err"
is "$?" 0 "exit status 0"
sed -n '/^warning/,/^[^ w]/p' "$T/out" | sed '$d' | tr -s ' \n' ' ' >"$T/w"
case $(cat "$T/w") in
"warning: column #2: its runs drift: vmreplay."*" went from "*" (first 6 runs) to "*" (last 6), more than its spread of ±"*"%"*"; the test assumes independent runs, so a flag in this column may be the machine's ")
	ok 0 "the column that drifts: a warning above the table" ;;
*) ok 1 "the column that drifts: a warning above the table"; diag "$(cat "$T/w")" ;;
esac
is "$(grep -c '^warning: column #1' "$T/out")" 0 "the steady column: no warning"
"$R" -f json "$T/a-first.json" "$T/b-first.json" >"$T/j"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print([x.get("drift") is not None for x in d["inputs"]], d["inputs"][1]["drift"]["half"])' "$T/j")" \
   "[False, True] 6" "JSON: the drift of each input"

# the same runs in another order are not a drift
python3 - "$T/b-first.json" "$T/shuffled.json" <<'PY'
import json, random, sys
d = json.load(open(sys.argv[1]))
order = list(range(d["runs"]))
random.Random(1).shuffle(order)
d["metrics"] = {k: [v[i] for i in order] for k, v in d["metrics"].items()}
json.dump(d, open(sys.argv[2], "w"))
PY
"$R" "$T/a-first.json" "$T/shuffled.json" >"$T/out"
is "$(grep -c '^warning' "$T/out")" 0 "the same runs shuffled: no warning"

# the real A/A batches kept their pace: no warning
for name in python3-threads pthread; do
	"$R" "$D/aa-$name-12.json" "$D/aa-$name-12.json" >"$T/out"
	is "$(grep -c '^warning' "$T/out")" 0 "$name, 12 steady runs: no warning"
done

# three runs cannot show a drift: nothing is said
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
d["metrics"] = {k: v[-3:] for k, v in d["metrics"].items()}
d["runs"] = 3
json.dump(d, open(sys.argv[2], "w"))' "$T/b-first.json" "$T/three.json"
"$R" "$T/a-first.json" "$T/three.json" >"$T/out"
is "$(grep -c '^warning' "$T/out")" 0 "three runs: no drift check"

done_testing

#!/bin/sh
# Exact changes: a count that is the same in every run of both columns (VMA
# counts, merge outcomes, calls) is compared exactly: a difference of one
# is flagged "changed +1", however small against the count.  Counts that
# vary between runs, and timings, go through the test instead.
# Data: the two halves of a real batch (tests/report/data/aa-pthread-12.json),
# the second with one more expand_next and one more split in every run, as
# issue 16 saw them (expand_next 65 -> 66, shrink 57 -> 58 went unflagged).
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data

python3 tests/report/split-runs.py "$D/aa-pthread-12.json" "$T" 1
# edit FILE METRIC=OFFSET... : adds OFFSET to every run of METRIC;
# METRIC=runs:V,V... sets its runs; runs=N keeps every metric's first N
edit() {
	python3 - "$@" <<'PY'
import json, sys
path = sys.argv[1]
d = json.load(open(path))
for arg in sys.argv[2:]:
    name, off = arg.split("=")
    if name == "runs":   # keep the first OFF runs of every metric
        d["runs"] = int(off)
        d["metrics"] = {m: v[:int(off)] for m, v in d["metrics"].items()}
    elif off.startswith("runs:"):
        d["metrics"][name] = [float(x) for x in off[5:].split(",")]
    else:
        d["metrics"][name] = [v + float(off) for v in d["metrics"][name]]
json.dump(d, open(path, "w"))
PY
}
cp "$T/b-0.json" "$T/b1.json"
edit "$T/b1.json" vmreplay.merge.expand_next=1 vmreplay.merge.split=1 vmreplay.vma_count.peak=1
"$R" "$T/a-0.json" "$T/b1.json" >"$T/out" 2>"$T/err"
is "$?" 0 "exit status 0"
for m in merge.expand_next merge.split vma_count.peak; do
	is "$(grep -c "  vmreplay\.$m  changed +1\$" "$T/out")" 1 "$m one more in every run: changed +1"
done
"$R" --all -f json "$T/a-0.json" "$T/b1.json" >"$T/j"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(sorted(m["name"] for m in d["metrics"] if m["cells"][1]["significant"]))' "$T/j")" \
   "['vmreplay.merge.expand_next', 'vmreplay.merge.split', 'vmreplay.vma_count.peak']" \
   "nothing else of the two halves is flagged"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x["cells"][1] for x in d["metrics"]}
c = m["vmreplay.merge.expand_next"]
print(c["test"], c["exact"], c["verdict"], c["delta"], c["p"], m["vmreplay.merge.new"]["test"])' "$T/j")" \
   "exact True changed 1 None exact" "JSON: test exact, delta 1, no p-value; equal counts are compared exactly too"

# however small: 16020 -> 16021 is 0.006%
cp "$T/a-0.json" "$T/a2.json"; cp "$T/b-0.json" "$T/b2.json"
edit "$T/a2.json" vmreplay.merge.unchanged=15700
edit "$T/b2.json" vmreplay.merge.unchanged=15701
"$R" "$T/a2.json" "$T/b2.json" | grep 'vmreplay.merge.unchanged' >"$T/out"
case $(cat "$T/out") in
*"+0.0%"*"vmreplay.merge.unchanged  changed +1") ok 0 "16020 -> 16021: changed +1 at +0.0%" ;;
*) ok 1 "16020 -> 16021: changed +1 at +0.0%"; diag "$(cat "$T/out")" ;;
esac

# one run each (kernel results): nothing varies, so counts are exact
cp "$T/a-0.json" "$T/a3.json"; cp "$T/b-0.json" "$T/b3.json"
edit "$T/a3.json" runs=1 vmreplay.merge.new=runs:20
edit "$T/b3.json" runs=1 vmreplay.merge.new=runs:21
"$R" "$T/a3.json" "$T/b3.json" | grep -c 'vmreplay.merge.new  changed +1$' >"$T/n"
is "$(cat "$T/n")" 1 "one run a side: changed +1"

# a count that varies between runs is tested, not compared exactly
cp "$T/b-0.json" "$T/b4.json"
edit "$T/b4.json" vmreplay.merge.expand_next=runs:300,301,300,301,300,301
"$R" --all -f json "$T/a-0.json" "$T/b4.json" >"$T/j"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [m for m in d["metrics"] if m["name"] == "vmreplay.merge.expand_next"][0]["cells"][1]
print(c["test"], c["significant"])' "$T/j")" "welch False" "a count that varies (300/301 against 300): Welch, +0.2% not flagged"

# a timing the same in every run (the clock's grain) is never compared exactly
cp "$T/b-0.json" "$T/b5.json"
edit "$T/b5.json" vmreplay.clock_cost_ns=1
"$R" --all -f json "$T/a-0.json" "$T/b5.json" >"$T/j"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [m for m in d["metrics"] if m["name"] == "vmreplay.clock_cost_ns"][0]["cells"][1]
print(c["test"], c["significant"], round(c["change_pct"]))' "$T/j")" "none False 10" "clock_cost_ns 10 -> 11 in every run: a timing, not tested"

done_testing

#!/bin/sh
# A results file whose fields have the wrong type or an impossible value
# is refused in one line naming the field (docs/results-schema.md says
# what each is): never read as something else, never a table.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data
need_built "$R"
GOOD=$D/brk-6.1.json EV=$D/churn-sim-6.1.json

# variant NAME BASE PYTHON : $T/NAME.json, BASE changed by PYTHON (on d)
variant() {
	python3 - "$2" "$T/$1.json" "$3" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"))
PY
}

# NAME|BASE|PYTHON|MESSAGE (after "vmreport: FILE: ")
while IFS='|' read -r name base py msg; do
	[ -n "$name" ] || continue
	variant "$name" "$base" "$py" || { ok 1 "$name: made"; continue; }
	"$R" "$base" "$T/$name.json" >"$T/out" 2>"$T/err"
	is "$?:$(cat "$T/err")" "1:vmreport: $T/$name.json: $msg" "$name: refused, named"
	is "$(wc -c <"$T/out")" 0 "$name: no table"
done <<LIST
runs-negative|$GOOD|d["runs"] = -1|"runs" is -1, not a whole number from 1 to 1000000000
runs-huge|$GOOD|d["runs"] = 1e18|"runs" is 1e+18, not a whole number from 1 to 1000000000
runs-string|$GOOD|d["runs"] = "3"|"runs" is a string, not a number
runs-fraction|$GOOD|d["runs"] = 2.5|"runs" is 2.5, not a whole number from 1 to 1000000000
metric-scalar|$GOOD|d["metrics"]["vmreplay.brk.calls"] = 7|metric "vmreplay.brk.calls" is a number, not an array of numbers
metric-short|$GOOD|d["metrics"]["vmreplay.brk.count"] = d["metrics"]["vmreplay.brk.count"][:4]|metric "vmreplay.brk.count" has 4 values for 5 runs
metric-runs|$GOOD|d["runs"] = 3|metric "vmreplay.brk.count" has 5 values for 3 runs
complete|$GOOD|d["complete"] = "yes"|"complete" is a string, not true or false
host-type|$GOOD|d["host"] = "x86"|"host" is a string, not an object
host-cores|$GOOD|d["host"]["cores"] = "2"|host: "cores" is a string, not a number
event-vmas|$EV|d["per_event"][0]["vma_count"] = "31"|per_event[0] (event 0): "vma_count" is a string, not a number
event-errno|$EV|d["per_event"][1]["errno"] = 9999|per_event[1] (event 1): "errno" is 9999, not a whole number from 0 to 4095
event-pid|$EV|d["per_event"][0]["pid"] = -5|per_event[0] (event 0): "pid" is -5, not a whole number from 0 to 4294967296
event-op|$EV|d["per_event"][0]["op"] = 9|per_event[0] (event 0): "op" is a number, not a string
event-call|$EV|d["per_event"][0]["call"] = {}|per_event[0] (event 0): "call" is an object, not a string
event-mismatch|$EV|d["per_event"][0]["mismatch"] = "no"|per_event[0] (event 0): "mismatch" is a string, not true or false
LIST
# the base files above are read the same: the variants are what is refused
"$R" "$GOOD" "$GOOD" >/dev/null 2>&1 && "$R" "$EV" "$EV" >/dev/null 2>&1
ok $? "the unchanged files are read"
done_testing

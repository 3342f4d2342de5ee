#!/bin/sh
# per_event is streamed, not held as a tree: vmreport's memory for a large
# per-event results file grows by its own compact rows only (a whole-
# document tree took about 1.5 kB a row: 1.5 GB for 1 M rows), and a
# per_event array anywhere in the document reads the same as last.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport V=$B/bin/vmtrace P=$B/bin/vmreplay D=tests/report/data
need_built "$R" "$V" "$P"
# peak RSS in kB of a command, as GNU time's %M (wait4's ru_maxrss)
maxrss() {
	python3 -c 'import resource, subprocess, sys
out = open(sys.argv[1], "w")
rc = subprocess.call(sys.argv[2:], stdout=out)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)' "$@"
}
carries_sanitizer "$R" && skip_all "a sanitizer runtime changes what memory is measured"

# 12000 iterations of brk_test: about 204,000 per_event rows
"$V" synth brk_test --iterations 12000 -o "$T/t.lz4" >/dev/null &&
"$P" --target sim --kernel 6.1 --per-event --json "$T/big.json" "$T/t.lz4" >/dev/null 2>&1
ok $? "a large per-event results file made"
rows=$(grep -c '"i": ' "$T/big.json")
[ "$rows" -gt 150000 ]
ok $? "it has over 150,000 rows ($rows)"

# the memory of reading two tiny files: the program itself
base=$(maxrss /dev/null "$R" -f json "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json")
rss=$(maxrss "$T/out" "$R" -f json "$T/big.json" "$T/big.json")
is "$?" 0 "vmreport reads two copies of it"
grep -q '"vmreplay.brk.ops_per_sec"' "$T/out"
ok $? "... and reports their metrics"
# 2 files x rows x 200 bytes (a row is 64 bytes, its call string about
# 40, the array grows by doubling) over the small run and 16 MiB of slack;
# a tree of both would be about 600 MB
bound=$(( base + (2 * rows * 200 + 16 * 1048576) / 1024 ))
[ "$rss" -lt "$bound" ]
ok $? "peak RSS ${rss} kB is under ${bound} kB (${base} kB + 200 bytes a row)"
diag "peak RSS $rss kB for 2 x $rows rows: $(( (rss - base) * 1024 / (2 * rows) )) bytes a row over $base kB"

# per_event first, then in the middle: the same report as per_event last
python3 - "$D/churn-sim-6.1.json" "$T/first.json" "$T/middle.json" <<'PY' || fail_all "python3 could not reorder"
import json, sys
d = json.load(open(sys.argv[1]))
keys = list(d)
first = {"per_event": d["per_event"], **{k: d[k] for k in keys if k != "per_event"}}
middle = {}
for k in keys:
    if k == "metrics":
        middle["per_event"] = d["per_event"]
    if k != "per_event":
        middle[k] = d[k]
json.dump(first, open(sys.argv[2], "w"), indent=1)
json.dump(middle, open(sys.argv[3], "w"))
PY
"$R" --no-stacks --explain -f json "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >"$T/want"
for o in first middle; do
	"$R" --no-stacks --explain -f json "$T/$o.json" "$D/churn-sim-6.8.json" | sed "s|$T/$o.json|$D/churn-sim-6.1.json|g" >"$T/got"
	is_file "$T/got" "$T/want" "per_event $o: the same report as per_event last"
done
head -c 40 "$T/first.json" | grep -q '"per_event"'
ok $? "... the reordered file does start with per_event"

done_testing

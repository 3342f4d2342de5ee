#!/bin/sh
# per_event is streamed and its rows are not held in memory: vmreport's
# memory for two large per-event results files stays that of two tiny ones
# plus a bound, with or without --explain and the HTML plots, which read
# the rows back from a temporary file (a whole-document tree took about
# 1.5 kB a row, the rows in memory about 270 bytes); a per_event array
# anywhere in the document reads the same as last, and rows out of event
# order the same as in order.
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
# flat: 24 MiB over the small run, whatever the rows (2 x 200,000 rows
# held in memory at 64 bytes a row would pass it; the former ~270 do not)
bound=$(( base + 24 * 1024 ))
[ "$rss" -lt "$bound" ]
ok $? "peak RSS ${rss} kB is under ${bound} kB (${base} kB + 24 MiB)"
note "peak RSS $rss kB for 2 x $rows rows, $base kB for two tiny files"
for o in --explain "-f html"; do
	# shellcheck disable=SC2086 # $o is two words
	rss=$(TMPDIR=$T maxrss "$T/out" "$R" $o "$T/big.json" "$T/big.json")
	is "$?" 0 "vmreport $o reads two copies of it"
	[ "$rss" -lt "$bound" ]
	ok $? "... in ${rss} kB, under ${bound} kB"
done
grep -q "VMAs after each event" "$T/out"
ok $? "... the HTML has the plot of every event's VMA count"
# no TMPDIR to keep the rows in: --explain says so in one line; a report
# that does not walk the rows does not need one
TMPDIR=$T/none "$R" --no-stacks --explain "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >/dev/null 2>"$T/err"
is "$?:$(head -1 "$T/err")" "1:vmreport: $D/churn-sim-6.1.json: cannot make a temporary file for the per_event rows in $T/none: No such file or directory" \
	"--explain without a usable TMPDIR: one line naming it, exit 1"
TMPDIR=$T/none "$R" "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >/dev/null
is "$?" 0 "... the table alone does not need one"

# rows out of event order: the same report as in order (they are sorted)
python3 - "$D/churn-sim-6.1.json" "$T/reversed.json" <<'PY' || fail_all "python3 could not reverse"
import json, sys
d = json.load(open(sys.argv[1]))
d["per_event"].reverse()
json.dump(d, open(sys.argv[2], "w"))
PY
"$R" --no-stacks --explain=100 -f json "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >"$T/want"
"$R" --no-stacks --explain=100 -f json "$T/reversed.json" "$D/churn-sim-6.8.json" |
	sed "s|$T/reversed.json|$D/churn-sim-6.1.json|g" >"$T/got"
is_file "$T/got" "$T/want" "per_event in reverse: the same --explain as in order"
grep -q '"events_differing": [1-9]' "$T/want"
ok $? "... which lists events that differ"

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

#!/bin/sh
# Bad input: one line naming the file and the problem, exit status 1 for
# unusable results, 2 for usage errors; never a crash, never a table.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data
GOOD=$D/brk-6.1.json

# FILE|MESSAGE (after "vmreport: FILE: ")
while IFS='|' read -r file msg; do
	[ -n "$file" ] || continue
	"$R" "$GOOD" "$D/$file" >"$T/out" 2>"$T/err"
	rc=$?
	is "$rc" 1 "$file: exit status 1"
	is "$(cat "$T/err")" "vmreport: $D/$file: $msg" "$file: message"
	is "$(wc -c <"$T/out")" 0 "$file: no table"
done <<'LIST'
bad-empty.json|empty file
bad-syntax.json|not valid JSON: line 3, column 17: invalid token near 'kernel'
bad-truncated.json|not valid JSON: line 10, column 9: premature end of input near '"thp_en'
bad-foreign.json|not vmrec results (no "vmrec_results" version field)
bad-version.json|results schema version 2; this vmreport reads version 1
bad-no-metrics.json|no "metrics" object
bad-metric-type.json|metric "vmreplay.brk.ops_per_sec" is a string, not an array of numbers
bad-metric-value.json|metric "vmreplay.brk.ops_per_sec" value 2 is a string, not a number
bad-target.json|target "kvm" is neither "kernel" nor "sim"
bad-event.json|per_event[0] (event 0) has no "outcome"
LIST

"$R" "$GOOD" "$T/none.json" 2>"$T/err"
is "$?" 1 "a file that does not exist: exit status 1"
is "$(cat "$T/err")" "vmreport: $T/none.json: cannot open: No such file or directory" "a file that does not exist: message"

"$R" "$GOOD" "$D/other-trace.json" >"$T/out" 2>"$T/err"
is "$?" 1 "results of another trace: exit status 1"
is "$(cat "$T/err")" "vmreport: $D/other-trace.json: results of trace mmap1.vmt, but $D/brk-6.1.json is of trace brk-mix.vmt; compare results of one trace (or pass --any-trace)" \
   "results of another trace: message"
"$R" --any-trace "$GOOD" "$D/other-trace.json" >"$T/out" 2>"$T/err"
is "$?" 0 "--any-trace: compared anyway"
grep -q '^     of another trace: mmap1.vmt$' "$T/out"
ok $? "--any-trace: the header says which input is of another trace"

# a trace given where results belong: say so, and how to make results
"$B/bin/vmtrace" synth brk1 --iterations 10 -o "$T/t.lz4" >/dev/null
"$R" "$T/t.lz4" "$GOOD" >"$T/out" 2>"$T/err"
is "$?" 1 "a trace instead of results: exit status 1"
is "$(cat "$T/err")" "vmreport: $T/t.lz4: a vmrec trace, not results: make results from it with vmreplay --repeat 5 --json t.json $T/t.lz4" \
   "a trace instead of results: says so and gives the vmreplay command"
is "$(wc -c <"$T/out")" 0 "a trace instead of results: no table"
printf 'not a trace\n' | lz4 -q -z - "$T/plain.lz4" 2>/dev/null
"$R" "$GOOD" "$T/plain.lz4" 2>"$T/err"
case $(cat "$T/err") in
"vmreport: $T/plain.lz4: not valid JSON: "*) ok 0 "a plain LZ4 file is not called a trace" ;;
*) ok 1 "a plain LZ4 file is not called a trace"; diag "$(cat "$T/err")" ;;
esac

# a missing metric is a note, not a failure; the cell says "missing"
"$R" "$GOOD" "$D/brk-6.8-no-munmap.json" >"$T/out" 2>"$T/err"
is "$?" 0 "missing metrics: exit status 0"
grep 'vmreplay.munmap.ops_per_sec' "$T/out" | grep -q '  missing  ' 
ok $? "missing metrics: the cell shows missing, not a number"

# usage errors: ARGS|MESSAGE
while IFS='|' read -r args msg; do
	[ -n "$args" ] || continue
	eval "set -- $args"
	"$R" "$@" >"$T/out" 2>"$T/err"
	is "$?" 2 "usage: $args: exit status 2"
	is "$(cat "$T/err")" "vmreport: $msg" "usage: $args: message"
done <<LIST
--bogus $GOOD $GOOD|unknown option --bogus (vmreport --help)
$GOOD|one results file: give a base and at least one to compare (vmreport --help)
|no results files: give a base and at least one to compare (vmreport --help)
-f pdf $GOOD $GOOD|unknown format "pdf" (text, markdown, json, html, lkp) (vmreport --help)
$GOOD $GOOD -f|-f needs an argument (vmreport --help)
--explain=x $GOOD $GOOD|--explain=x: expected a count from 1 to 100000 (vmreport --help)
--stacks= $GOOD $GOOD|--stacks=: expected a trace file (vmreport --help)
--trace= $GOOD $GOOD|--trace=: expected a trace file (vmreport --help)
--label a,b,c $GOOD $GOOD|--label gives 3 labels for 2 results files
LIST

"$R" -o "$T/no/such/dir.txt" "$GOOD" "$GOOD" 2>"$T/err"
is "$?" 1 "-o into a missing directory: exit status 1"
is "$(cat "$T/err")" "vmreport: $T/no/such/dir.txt: cannot write: No such file or directory" "-o: message"
if [ -w /dev/full ]; then
	"$R" "$GOOD" "$GOOD" >/dev/full 2>"$T/err"
	is "$?" 1 "a full disk: exit status 1"
	is "$(cat "$T/err")" "vmreport: standard output: write error: No space left on device" "a full disk: message"
fi

# hostile JSON: deep nesting is refused, not a stack overflow
python3 -c 'print("[" * 100000)' >"$T/deep.json"
"$R" "$GOOD" "$T/deep.json" 2>"$T/err"
is "$?" 1 "100000 nested arrays: exit status 1"
is "$(cat "$T/err")" "vmreport: $T/deep.json: not valid JSON: line 1, column 2049: maximum parsing depth reached near '['" "deep nesting: message"

done_testing

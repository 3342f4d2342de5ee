#!/bin/sh
# vmreport --format lkp: results files as the stats records an lkp-tests
# parse program prints (lkp/programs/vmreplay/parse passes them on).  What
# lkp-tests' dump-stat needs: "name: number" lines, no exponent; the name
# without "vmreplay." (dump-stat adds the program's); every metric once per
# record and the records run by run, since a name printed again starts the
# next record and a name a record lacks becomes 0 there.  tests/lkp/ runs
# them through lkp-tests itself.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data
need_built "$R"

"$R" -f lkp "$D/brk-6.1.json" >"$T/one" 2>"$T/err"
is "$?" 0 "one results file: exit status 0"
is "$(cat "$T/err")" "" "one results file: nothing on stderr"
is "$(head -n 2 "$T/one")" "# vmreplay results $D/brk-6.1.json: trace traces/brk-mix.vmt, kernel 6.1.0-28-amd64, 5 runs
# reproduce: vmreplay --repeat 5 --json out.json traces/brk-mix.vmt" "comment lines say what the records are"
is "$(grep -v '^#' "$T/one" | grep -cvE '^[a-z0-9_.]+: -?[0-9]+(\.[0-9]+)?$')" 0 "every other line is NAME: NUMBER"
is "$(grep -c '^vmreplay\.' "$T/one")" 0 "names without vmreplay. (dump-stat adds it)"
# the records as dump-stat builds them: a new one at a name seen again
python3 - "$T/one" "$D/brk-6.1.json" >"$T/check" <<'EOF'
import json, sys
records, seen = [], set()
for line in open(sys.argv[1]):
    if line.startswith('#'):
        continue
    k, v = line.rstrip('\n').split(': ')
    if k in seen or not records:
        records.append({}); seen = set()
    seen.add(k); records[-1]['vmreplay.' + k] = float(v)
m = json.load(open(sys.argv[2]))['metrics']
print(len(records), all(sorted(r) == sorted(m) for r in records),
      all(r[k] == m[k][i] for i, r in enumerate(records) for k in m))
EOF
is "$(cat "$T/check")" "5 True True" "5 records, one per run, each with every metric and its run's value"
grep -q '^brk.ops_per_sec: 712345$' "$T/one" && grep -q '^brk.latency_ns.p50: 1386$' "$T/one"
ok $? "whole numbers printed whole"

# a guest's results: its timings left out, its counts kept
"$R" -f lkp "$D/brk-6.8-tcg.json" >"$T/tcg"
is "$(grep -c 'ops_per_sec\|latency_ns\|elapsed_ns\|events_per_sec\|clock_cost_ns' "$T/tcg")" 0 \
   "an emulated guest's timings left out"
grep -q '^# timings left out: ' "$T/tcg" && grep -q '^vma_count.final: 25$' "$T/tcg"
ok $? "its VMA counts kept"

# the simulator's: its own time is no kernel's
"$R" -f lkp "$D/vmreplay-churn-sim-6.1.json" >"$T/sim"
is "$(grep -c 'ops_per_sec\|latency_ns\|elapsed_ns\|events_per_sec\|clock_cost_ns' "$T/sim")" 0 \
   "the simulator's timings left out"
grep -q '^# timings left out: the simulator' "$T/sim" && grep -q '^merge.new: ' "$T/sim"
ok $? "its merge outcomes kept"

# several files: --label prefixes each one's names, runs interleaved
"$R" -f lkp --label cc-compile,sh "$D/brk-6.1.json" "$D/brk-6.12.json" >"$T/two"
is "$?" 0 "two files with --label: exit status 0"
is "$(grep -v '^#' "$T/two" | sed -n '1p;37p;73p' | cut -d: -f1 | tr '\n' ' ')" \
   "cc-compile.brk.count sh.brk.count cc-compile.brk.count " \
   "the first run of each file, then the second"
is "$(grep -c '^cc-compile.vma_count.final: ' "$T/two") $(grep -c '^sh.vma_count.final: ' "$T/two")" "5 5" \
   "each file's metric once per run"

# refused, with the reason
"$R" -f lkp "$D/brk-6.1.json" "$D/brk-6.12.json" 2>"$T/err" >/dev/null
is "$? $(cat "$T/err")" "2 vmreport: --format lkp with several results files needs --label: each label prefixes its file's metrics (vmreport --help)" \
   "several files without --label"
"$R" -f lkp --label 'a b' "$D/brk-6.1.json" 2>"$T/err" >/dev/null
is "$? $(cat "$T/err")" "2 vmreport: --format lkp: label \"a b\" cannot prefix a stat name (no blank, no ':', not empty) (vmreport --help)" \
   "a label dump-stat would refuse"
"$R" -f lkp --explain "$D/brk-6.1.json" 2>"$T/err" >/dev/null
is "$? $(cat "$T/err")" "2 vmreport: --format lkp compares nothing: it takes only --label and -o (vmreport --help)" \
   "a comparison's option"
"$R" -f lkp 2>"$T/err" >/dev/null
is "$?" 2 "no results files"
"$R" -f lkp "$D/bad-syntax.json" >/dev/null 2>"$T/err"
is "$?" 1 "a bad results file: exit status 1"
done_testing

#!/bin/sh
# Output formats: markdown byte for byte, JSON that parses and says what
# the table says, colour only on a terminal and never with NO_COLOR, -o.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data E=tests/report/expected

"$R" -f markdown -r "$D/brk-6.1.json" "$D/brk-6.8-tcg.json" >"$T/md"
is "$?" 0 "markdown: exit status 0"
is_file "$T/md" "$E/tcg-ranges.md" "markdown: exact output (ranges, n/c for emulated timings)"
# every table row has as many cells as its header
python3 -c '
import sys
rows = [l for l in open(sys.argv[1]) if l.startswith("|")]
widths = set()
for l in rows:
    widths.add(l.rstrip("\n").replace("\\|", "").count("|"))
sys.exit(0 if len(widths) <= 2 else 1)' "$T/md"
ok $? "markdown: rows have the cells of their header"

"$R" -f json --explain "$D/brk-6.1.json" "$D/brk-6.8.json" "$D/brk-6.12.json" >"$T/json"
is "$?" 0 "json: exit status 0"
python3 -m json.tool "$T/json" >/dev/null
ok $? "json: parses (python3 -m json.tool)"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
b = m["vmreplay.brk.ops_per_sec"]
c = b["cells"]
print(d["vmreport"], len(d["inputs"]), d["inputs"][1]["label"], d["inputs"][1]["host"]["cpu"], d["inputs"][0]["runs"],
      len(d["metrics"]), b["direction"], b["shown"], c[0]["n"], round(c[0]["mean"]), c[0]["min"], c[0]["max"],
      round(c[1]["change_pct"], 2), c[1]["verdict"], c[2]["verdict"], m["vmreplay.mmap.latency_ns.p90"]["shown"],
      len(d["explain"]), d["explain"][0]["problem"])' "$T/json")" \
   "1 3 6.8.0-50-generic Intel Xeon Gold 6338 5 36 higher_is_better True 5 712148 705120 718900 -8.26 regression improvement False 2 no per-event results (replay with vmreplay --per-event)" \
   "json: inputs, summaries, change, verdicts, shown flags, explain"

"$R" -f json "$D/brk-6.1.json" "$D/brk-6.8-tcg.json" "$D/brk-6.8-no-munmap.json" 2>/dev/null >"$T/json"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
c = m["vmreplay.munmap.ops_per_sec"]["cells"]
print(c[1]["comparable"], c[1]["change_pct"], c[2]["state"], c[2]["mean"], d["inputs"][1]["vm"])' "$T/json")" \
   "False None missing None qemu-tcg" "json: not comparable and missing cells carry no numbers"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print([x["reproduce"].split(" --json")[0] for x in d["inputs"]], d["inputs"][1]["command"].split()[0])' "$T/json")" \
   "['vmreplay --repeat 5', 'vmreplay --vm 6.8.0-50-generic --vm-thp always --repeat 5', 'vmreplay --repeat 5'] /bin/vmreplay" \
   "json: each input's reproduce line, the guest's own command kept"

"$R" --by-trace -f json "$D/brk-6.1.json" "$D/churn-sim-6.1.json" "$D/brk-6.8.json" "$D/churn-sim-6.8.json" >"$T/json"
is "$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(len(d), [len(x["inputs"]) for x in d])' "$T/json")" \
   "2 [2, 2]" "json --by-trace: an array of one comparison per trace"

# colour: on a terminal only, and never with NO_COLOR
ARGS="$D/brk-6.1.json $D/brk-6.8.json"
ESC=$(printf '\033')
script -qec "env -u NO_COLOR $R $ARGS" /dev/null >"$T/tty"
grep -q "$ESC\[31m     -8.3%$ESC\[0m" "$T/tty"
ok $? "terminal: the regression in red"
script -qec "env NO_COLOR=1 $R $ARGS" /dev/null >"$T/tty"
! grep -q "$ESC" "$T/tty"
ok $? "terminal with NO_COLOR: no escape sequences"
script -qec "env -u NO_COLOR $R -o $T/o.txt $ARGS" /dev/null >/dev/null
! grep -q "$ESC" "$T/o.txt"
ok $? "terminal, -o FILE: no escape sequences in the file"
env -u NO_COLOR "$R" $ARGS >"$T/pipe"
! grep -q "$ESC" "$T/pipe"
ok $? "a pipe: no escape sequences"
is_file "$T/o.txt" "$E/two-kernels.txt" "-o FILE: the same report as on standard output"

done_testing

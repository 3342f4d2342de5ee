#!/bin/sh
# Fidelity: a replay that did not do what the recording did says nothing
# about the kernel.  Its column gets a warning at the top of the report
# ("column #2: 5/6 checkpoints matched; its VMA and merge rows are not
# comparable"), those rows are marked and get no verdict, and fidelity
# metrics never get one.  A checkpoint that differs on another kernel than
# the recording's, every call as recorded, is that kernel's VMA layout:
# a note, and the rows are compared.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport

# a real replay on this kernel of a trace made here: the trace's header
# names this kernel, so a checkpoint that differs is the replay's fault
cd "$T" || exit 1
"$B/bin/vmtrace" synth pthread --iterations 4 -o pthread.lz4 >/dev/null &&
	"$B/bin/vmreplay" -q --repeat 6 --json host.json pthread.lz4
ok $? "a trace and six replays of it on this kernel"
# edit IN OUT KEY=VALUE|KEY+=N|steady... : metrics (every run), top-level
# strings; steady: every metric's runs its median
edit() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for arg in sys.argv[3:]:
    if arg == "steady":
        for k, v in d["metrics"].items():
            s = sorted(v)
            d["metrics"][k] = [s[len(s) // 2]] * len(v)
        continue
    k, v = arg.split("=")
    if k.endswith("+"):
        k = k[:-1]
        d["metrics"][k] = [x + float(v) for x in d["metrics"][k]]
    elif k.startswith("vmreplay."):
        d["metrics"][k] = [float(v)] * d["runs"]
    else:
        d[k] = v
json.dump(d, open(sys.argv[2], "w"))
PY
}
# base.json is the clean column whatever this replay met, which is not
# what this test is about: under load a call of the live replay can come
# back moved or different (seen in CI-like full runs), and the six runs'
# timings can drift as the machine's load changes during them, which
# vmreport rightly warns about ("its runs drift"), adding a warning line
# of its own to every report below (seen once in a make check under load;
# a replay whose runs sped up by half reproduces it).  So its runs are
# made steady, each metric its median.
edit host.json base.json steady vmreplay.fidelity.checkpoints_matched=6 vmreplay.fidelity.checkpoints_total=6 \
	vmreplay.fidelity.result_mismatches=0 vmreplay.fidelity.moved_events=0
edit base.json lost.json vmreplay.fidelity.checkpoints_matched=5 vmreplay.merge.split+=1 vmreplay.vma_count.final+=1
"$R" base.json lost.json >out 2>err
is "$?" 0 "5/6 checkpoints: exit status 0"
is "$(sed -n '/^warning/p' out)" "warning: column #2: 5/6 checkpoints matched; its VMA and merge rows are not comparable" \
   "5/6 checkpoints: the warning at the top"
is "$(awk '/^warning/ {w = NR} /^----/ && !t {t = NR} END {print (w && w < t)}' out)" 1 "the warning comes before the table"
for m in merge.split vma_count.final; do
	is "$(grep -c "  vmreplay\.$m  not comparable\$" out)" 1 "$m differs: shown, marked not comparable, no verdict"
done
grep -q '^not comparable: ' out
ok $? "a footnote says what not comparable means"
"$R" --all -f json base.json lost.json >j
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
c = m["vmreplay.merge.split"]["cells"][1]
f = m["vmreplay.fidelity.checkpoints_matched"]
print(c["not_comparable"], c["significant"], c["verdict"], round(c["change_pct"], 1), f["kind"],
      f["cells"][1]["test"], f["cells"][1]["verdict"], round(f["cells"][1]["change_pct"], 1),
      m["vmreplay.mmap.ops_per_sec"]["cells"][1]["not_comparable"])' j)" \
   "fidelity False same 1.6 replay none same -16.7 None" \
   "JSON: marked rows keep their %change; checkpoints_matched -16.7% gets no verdict; timings are still compared"

# calls that returned other results than recorded
edit base.json mism.json vmreplay.fidelity.result_mismatches=3
"$R" base.json mism.json >out
is "$(sed -n '/^warning/,/^[^ w]/p' out | sed '$d' | tr -s ' \n' ' ')" "warning: column #2: 3 calls returned other results than recorded; its VMA and merge rows are not comparable " \
   "result mismatches: the warning"

# the first column lost fidelity: no column can be compared with it
"$R" lost.json base.json >out
is "$(sed -n '/^warning/,/^[^ w]/p' out | head -1)" "warning: column #1: 5/6 checkpoints matched; its VMA and merge rows are not comparable, so no" \
   "the first column: no column's rows are comparable"
is "$(grep -c '  vmreplay\.merge\.split  not comparable$' out)" 1 "the first column: the other column's rows are marked"

# a trace that cannot be read: said so, and not trusted
cp lost.json "$T/gone.json"
edit lost.json gone.json trace=no-such-trace.lz4
edit base.json gone-base.json trace=no-such-trace.lz4
"$R" gone-base.json gone.json >out
grep -q '^  .*could not read the trace to tell whether it was recorded on another kernel' out
ok $? "the trace cannot be read: the warning says so"

# the trace is found where another column names it, or where --trace says
# (results of vmreplay --vm name the guest's path of the trace)
edit base.json guest.json trace=/trace/0/pthread.lz4 target=kernel kernel=6.1.0-57-cloud-amd64 \
	vmreplay.fidelity.checkpoints_matched=4
"$R" base.json guest.json >out
grep -q '^note: column #2: 4/6 checkpoints matched, every call as recorded: its kernel (6.1.0-57-cloud-amd64)' out
ok $? "a guest's path: the trace another column names tells the recording's kernel"
mkdir sub && cp guest.json sub/ && edit base.json sub/guest-base.json trace=/trace/0/pthread.lz4
"$R" sub/guest-base.json sub/guest.json >out
grep -q '^warning: column #2: 4/6 checkpoints matched' out
ok $? "no column names a trace that is here, none beside the results: a warning"
"$R" --trace "$T/pthread.lz4" sub/guest-base.json sub/guest.json >out
grep -q '^note: column #2: 4/6 checkpoints matched, every call as recorded' out
ok $? "--trace TRACE: the trace is there"
cp pthread.lz4 other-name.lz4
"$R" --trace "$T/other-name.lz4" sub/guest-base.json sub/guest.json >out
grep -q '^warning: column #2: 4/6 checkpoints matched' out
ok $? "--trace of another name is not this table's trace"

# a simulator profile of another kernel, every call as recorded
edit base.json sim.json target=sim kernel=6.1 vmreplay.fidelity.checkpoints_matched=4 vmreplay.merge.split+=-1
"$R" base.json sim.json >out 2>err
kernel=$(uname -r)
is "$(sed -n '/^note/,/^[^ ]/p' out | sed '$d' | tr -s ' \n' ' ')" \
   "note: column #2: 4/6 checkpoints matched, every call as recorded: its kernel (6.1) lays VMAs out unlike the recording's ($kernel); its VMA and merge rows are compared " \
   "another kernel's layout: a note, not a warning"
is "$(grep -c '  vmreplay\.merge\.split  changed -1$' out)" 1 "another kernel's layout: its rows are compared"

# the same for real: a threaded program recorded here, replayed in the
# simulator's 6.1 profile (its thread stacks merge where 6.18's do not).
# One thread at a time: eight threads started together interleave their
# stacks and blocks as the machine schedules them, and in some recordings
# (more often under load) nothing is left that 6.1 lays out otherwise -
# the test failed so.  Started and joined in turn, every recording ends
# one VMA apart (12 of 12 with two CPU hogs running).
"$B/bin/vmrec" -o py.lz4 -- /usr/bin/python3 -c 'import threading
for _ in range(8):
    t = threading.Thread(target=bytearray, args=(1 << 20,)); t.start(); t.join()' &&
	"$B/bin/vmreplay" -q --repeat 3 --json py-host.json py.lz4 &&
	"$B/bin/vmreplay" -q --target sim --kernel 6.1 --json py-61.json py.lz4 >/dev/null
ok $? "python3 with 8 threads: recorded, replayed here and in sim:6.1"
"$R" py-host.json py-61.json >out
grep -q "^note: column #2: [0-9]*/[0-9]* checkpoints matched, every call as recorded: its kernel (6.1)" out
ok $? "python3 threads in sim:6.1: the note"
is "$(grep -c '^warning' out)" 0 "python3 threads in sim:6.1: no warning"
grep -q '  vmreplay\.vma_count\.final  changed ' out
ok $? "python3 threads in sim:6.1: the VMA count differs and is flagged"

done_testing

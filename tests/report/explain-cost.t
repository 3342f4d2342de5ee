#!/bin/sh
# --explain on the simulator's per-event modelled cost ("model", "cited"
# in per_event): the first events whose cost differs, the counts that
# differ, and the rule behind them with its commit.
# - aim9.brk_test, 6.3 against 6.4: every brk expansion preallocates maple
#   nodes in 6.4 (C1, 28c5609fb2).
# - stress-ng pthread under THP always: 6.7 places the thread stacks
#   PMD-aligned (T1, efa7df3e3bb5), so the mprotect after the first stack
#   splits where 6.6 merged, and each stack's first touch zeroes a 2 MiB
#   page; 6.8 makes MAP_STACK VM_NOHUGEPAGE (T4, c4608d1bf7c6) again.
. "$(dirname "$0")/../lib.sh"
need_built "$B/bin/vmtrace" "$B/bin/vmreplay" "$B/bin/vmreport"
VT=$B/bin/vmtrace VR=$B/bin/vmreplay R=$B/bin/vmreport
# the modelled time follows the shipped calibration: not pinned here
nocost() { sed 's/, cost_ns [0-9]* -> [0-9]*//; s/cost_ns [0-9]* -> [0-9]*, //'; }
cd "$T" || exit 1

"$VT" synth brk_test --iterations 100 -o brk.lz4 >/dev/null
ok $? "vmtrace synth brk_test"
for k in 6.3 6.4; do
	"$VR" -q --target sim --kernel "$k" --thp never --per-event --json "b-$k.json" brk.lz4
	ok $? "brk_test replayed in $k with --per-event"
done
"$R" --no-stacks --explain=1 b-6.3.json b-6.4.json | sed -n '/^explain:/,$p' >out
cat >want <<'EOF'
explain: sim:6.4 against sim:6.3 (#2, b-6.4.json): 1601 of 1703 events differ in outcome, in the VMAs they add or remove or in modelled cost (0 end with another VMA count, 1601 differ in cost); the first 1:
  event 0: brk(0x55555567a000) = 0x55555567a000
    sim:6.3          expand_prev vma_count 24        rule: brk expanded the heap VMA (6.1 6c28ca6485dd B1)
    sim:6.4          expand_prev vma_count 24        rule: brk expanded the heap VMA (6.1 6c28ca6485dd B1); preallocates (6.4 28c5609fb2 C1)
    modelled cost    mt_prealloc 0 -> 1, mt_nodes 0 -> 7
    cost rule        C1 28c5609fb2 (sim:6.4 only)
EOF
is_file out want "brk_test: the first brk expansion preallocates in 6.4, C1 28c5609fb2"

"$R" --no-stacks --explain=1 -f markdown b-6.3.json b-6.4.json | grep -e '^    - modelled cost' -e '^    - cost rule' >out
printf '%s\n' '    - modelled cost: mt_prealloc 0 -> 1, mt_nodes 0 -> 7' \
	'    - cost rule: `C1 28c5609fb2` (sim:6.4 only)' >want
is_file out want "the same in markdown"

"$R" --no-stacks --explain=1 -f json b-6.3.json b-6.4.json >j.json
is "$(python3 -c 'import json,sys
e = json.load(open(sys.argv[1]))["explain"][0]
f = e["first"][0]
print(e["events_differing_in_cost"], f["i"], [(c["count"], c["base"], c["other"]) for c in f["cost"]],
      [(r["rule"], r["cited_by"], r["at_event"]) for r in f["cost_rules"]])' j.json)" \
   "1601 0 [('mt_prealloc', 0, 1), ('mt_nodes', 0, 7)] [('C1 28c5609fb2', 'other', 0)]" \
   "the same in JSON"

"$VT" synth pthread -o pthread.lz4 >/dev/null
ok $? "vmtrace synth pthread"
for k in 6.6 6.7 6.8; do
	"$VR" -q --target sim --kernel "$k" --placement kernel --thp always --per-event --json "p-$k.json" pthread.lz4
	ok $? "pthread replayed in $k, THP always, with --per-event"
done
"$R" --no-stacks --explain=1 p-6.6.json p-6.7.json | sed -n '/^explain:/,$p' | nocost >out
cat >want <<'EOF'
explain: sim:6.7 against sim:6.6 (#2, p-6.7.json): 470 of 961 events differ in outcome, in the VMAs they add or remove or in modelled cost (790 end with another VMA count, 470 differ in cost); the first 1:
  event 1: mprotect(0x7ffff75cc000, 8388608, PROT_READ|PROT_WRITE) = 0
    sim:6.6          expand_next vma_count 25 (+0)   rule: merged with next
    sim:6.7          split       vma_count 26 (+1)   rule: outcome split: more VMAs than before
    modelled cost    vma_alloc 0 -> 1
    cost rule        T1 efa7df3e3bb5 (sim:6.7 only), cited at event 0
EOF
is_file out want "pthread 6.6 against 6.7: the first cost that differs follows T1 efa7df3e3bb5, cited at the stack's mmap"

# the first stack's munmap: the touches before it, one 2 MiB page in 6.7
"$R" --no-stacks --explain=100 p-6.6.json p-6.7.json | grep -A4 '^  event 80:' | nocost >out
cat >want <<'EOF'
  event 80: munmap(0x7ffff75cb000, 8392704) = 0
    sim:6.6          remove      vma_count 54 (-1)
    sim:6.7          remove      vma_count 54 (-2)
    modelled cost    vma_alloc 1 -> 0, mt_store 4 -> 2, mt_prealloc 4 -> 2, mt_nodes 40 -> 20, zero_4k 6 -> 1, anon_vma 0 -> 1, zero_2m 0 -> 1
    cost rule        T1 efa7df3e3bb5 (sim:6.7 only), cited at event 45
EOF
is_file out want "pthread 6.6 against 6.7: the stack's first touch zeroes 2 MiB (T1)"

"$R" --no-stacks --explain=1 p-6.7.json p-6.8.json | sed -n '/^explain:/,$p' | nocost >out
cat >want <<'EOF'
explain: sim:6.8 against sim:6.7 (#2, p-6.8.json): 160 of 961 events differ in outcome, in the VMAs they add or remove or in modelled cost (0 end with another VMA count, 160 differ in cost); the first 1:
  event 80: munmap(0x7ffff75cb000, 8392704) = 0
    sim:6.7          remove      vma_count 54 (-2)
    sim:6.8          remove      vma_count 54 (-2)
    modelled cost    zero_4k 1 -> 6, zero_2m 1 -> 0
    cost rule        T4 c4608d1bf7c6 (sim:6.8 only), cited at event 45
EOF
is_file out want "pthread 6.7 against 6.8: only the zeroing differs, T4 c4608d1bf7c6"

# fork of 1 GiB in 64 KiB folios: 6.9 copies a folio's PTEs as a batch
# (F1); the work is the parent's fork call's, not the child's first event
"$VT" synth fork --iterations 2 -o fork.lz4 >/dev/null
ok $? "vmtrace synth fork"
for k in 6.8 6.9; do
	"$VR" -q --target sim --kernel $k --thp never --mthp 64K --per-event --json f-$k.json fork.lz4
	ok $? "fork replayed in $k, 64K folios, with --per-event"
done
"$R" --no-stacks --explain=1 f-6.8.json f-6.9.json | sed -n '/^explain:/,$p' | nocost >out
cat >want <<'EOF'
explain: sim:6.9 against sim:6.8 (#2, f-6.9.json): 2 of 7 events differ in outcome, in the VMAs they add or remove or in modelled cost (0 end with another VMA count, 2 differ in cost); the first 1:
  event 1: clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7ffff7dcca10) = 4243
    sim:6.8          unchanged   vma_count 25 (+0)
    sim:6.9          unchanged   vma_count 25 (+0)
    modelled cost    fork_rmap 262144 -> 16384
    cost rule        F1 f8d937761d65 (sim:6.9 only)
EOF
is_file out want "fork 6.8 against 6.9 in 64K folios: each fork's rmap work, F1 f8d937761d65, at the fork"

# results without per-event costs (an older vmreplay, or the kernel): the
# old sentence, no cost lines
python3 - p-6.7.json p-6.8.json <<'PY'
import json, sys
for p in sys.argv[1:]:
    d = json.load(open(p))
    for e in d["per_event"]:
        e.pop("model", None)
        e.pop("cited", None)
    json.dump(d, open("nomodel-" + p, "w"))
PY
"$R" --no-stacks --explain=1 nomodel-p-6.7.json nomodel-p-6.8.json | grep -c -e 'modelled cost' -e 'cost rule' >out
is "$(cat out)" 0 "without per-event costs: no cost lines"
"$R" --no-stacks --explain=1 nomodel-p-6.7.json p-6.8.json | grep '^explain:' >out
is "$(cat out)" "explain: sim:6.8 against sim:6.7 (#2, p-6.8.json): all 961 events agree" \
   "costs on one side only: compared as before"

# a "model" that is not what vmreplay writes: one line, exit status 1
python3 - b-6.4.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["per_event"][3]["model"] = {"mt_walk": "one"}
json.dump(d, open("bad-model.json", "w"))
d["per_event"][3]["model"] = {"mt_walk": 1}
d["per_event"][3]["cited"] = [7]
json.dump(d, open("bad-cited.json", "w"))
PY
"$R" --explain b-6.3.json bad-model.json >out 2>err
is "$?:$(cat err)" '1:vmreport: bad-model.json: per_event[3] (event 3): model "mt_walk" is not a count' \
   "a count that is not a number"
"$R" --explain b-6.3.json bad-cited.json >out 2>err
is "$?:$(cat err)" '1:vmreport: bad-cited.json: per_event[3] (event 3): "cited"[0] is not a string' \
   "a cited rule that is not a string"
done_testing

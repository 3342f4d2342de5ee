#!/bin/sh
# The rules of 6.13 to 6.18 that the host profile follows, each as one
# case of tests/replay/progs/newer_rules.c: recorded, replayed on this
# kernel and in the simulator's host profile, and every event compared
# (outcome, VMA count, errno, result: tests/vm/selftests_cmp.py).  On a
# kernel older than a rule both sides answer as that older release.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
REC=$B/bin/vmrec P=$B/tests/replay/progs/newer_rules
need_built "$REC" "$P"
(cd "$T" && "$REC" -o "$T/n.vmt" -- "$P" >"$T/rec.out" 2>&1)
ok $? "newer_rules recorded"
"$V" -q --per-event --json "$T/k.json" "$T/n.vmt" >/dev/null 2>"$T/k.err"
ok $? "replayed on this kernel"
"$V" -q --target sim --kernel host --per-event --json "$T/s.json" "$T/n.vmt" >/dev/null 2>"$T/s.err"
ok $? "replayed in the simulator's host profile"
"$PYTHON" "$S/tests/vm/selftests_cmp.py" "$T/k.json" "$T/s.json" >"$T/cmp" 2>&1
ok $? "kernel and host profile agree: $(tail -n 1 "$T/cmp")"
sed '$d' "$T/cmp"
# the cases did what they are there for: the multi-VMA move was made
"$PYTHON" - "$T/k.json" >"$T/moves" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["per_event"]
print(sum(1 for e in ev if e["op"] == "mremap" and e["errno"] == 0),
      sum(1 for e in ev if e["op"] == "madvise" and e["errno"] == 14),
      sum(1 for e in ev if e["op"] == "madvise" and e["errno"] == 22))
PY
uname_rel=$(uname -r | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
if [ "$(printf '%s\n6.17\n' "$uname_rel" | sort -V | head -n 1)" = 6.17 ]; then
	is "$(cut -d' ' -f1 "$T/moves")" 4 "the moves succeeded on this kernel, the one across three VMAs too (6.17 on)"
else
	skip "this kernel ($uname_rel) is older than 6.17: multi-VMA moves fail on both sides"
fi
if [ "$(printf '%s\n6.13\n' "$uname_rel" | sort -V | head -n 1)" = 6.13 ]; then
	is "$(cut -d' ' -f2 "$T/moves")" 4 "four populates over guard markers failed with EFAULT on this kernel (6.13 on)"
	is "$(cut -d' ' -f3 "$T/moves")" 2 "two collapses failed with EINVAL (a guard marker, VM_NOHUGEPAGE)"
else
	skip "this kernel ($uname_rel) is older than 6.13: no guard regions"
fi
# the calls issue 34 added, each once (tests/shim/progs/vma_calls.c):
# every event agrees (P1 N1 U1 H1 W1 K1 S1, process_madvise,
# remap_file_pages)
VC=$B/tests/shim/progs/vma_calls
need_built "$VC"
(cd "$T" && "$REC" -o "$T/vc.vmt" -- "$VC" >"$T/vc.out" 2>&1)
ok $? "vma_calls recorded"
"$V" -q --per-event --json "$T/kvc.json" "$T/vc.vmt" >/dev/null 2>"$T/kvc.err" &&
	"$V" -q --target sim --kernel host --per-event --json "$T/svc.json" "$T/vc.vmt" >/dev/null 2>"$T/svc.err"
ok $? "vma_calls replayed on this kernel and in the host profile"
"$PYTHON" "$S/tests/vm/selftests_cmp.py" "$T/kvc.json" "$T/svc.json" >"$T/cmpvc" 2>&1
ok $? "vma_calls: kernel and host profile agree: $(tail -n 1 "$T/cmpvc")"
sed '$d' "$T/cmpvc"
done_testing

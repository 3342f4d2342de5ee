#!/bin/sh
# process_madvise through pidfds the replay cannot give it as recorded
# (tests/replay/progs/pidfd_madvise.c): with none it fails with EBADF
# here too, with an ended process's ESRCH, and one that worked on a live
# child's memory (not the caller's) on the child's replayer or model (the
# trace names the pidfd's process, format 6; tests/replay/remote-madvise.t)
# on both back ends: --strict passes.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
REC=$B/bin/vmrec P=$B/tests/replay/progs/pidfd_madvise
need_built "$REC" "$P"
(cd "$T" && "$REC" -o "$T/p.vmt" -- "$P" >"$T/rec.out" 2>&1)
ok $? "pidfd_madvise recorded, each call as meant (exit 0)"; sed "s/^/# /" "$T/rec.out"
"$V" -q --strict --per-event --json "$T/k.json" "$T/p.vmt" >/dev/null 2>"$T/k.err"
ok $? "this kernel: --strict"
sed 's/^/# /' "$T/k.err"
"$V" -q --strict --target sim --kernel host --per-event --json "$T/s.json" "$T/p.vmt" >/dev/null 2>"$T/s.err"
ok $? "the simulator: --strict"
sed 's/^/# /' "$T/s.err"
for b in k s; do
	"$PYTHON" -c '
import json, sys
print(" ".join("%s/%s" % (e["outcome"], e["errno"]) for e in json.load(open(sys.argv[1]))["per_event"]
               if e["op"] == "process_madvise"))
' "$T/$b.json" >"$T/$b.pm"
	is "$(cat "$T/$b.pm")" "failed/9 failed/3 unchanged/0" "$b: EBADF, ESRCH, the child's memory advised"
done
done_testing

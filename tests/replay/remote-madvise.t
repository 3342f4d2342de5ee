#!/bin/sh
# process_madvise of another recorded process's memory
# (tests/replay/progs/remote_madvise.c: a parent advises its child's
# mapping through a pidfd, then kills the child, which made no call after
# its mmap).  The trace says which process the pidfd named (RANGES kind
# 1's target, format 6) and which of its pages were mapped (RESIDENCY
# records of the child's pid); the replay issues each call on the child's
# replayer, its pages faulted in there first, and in the child's model
# (simulator): MADV_COLD, PAGEOUT, WILLNEED and COLLAPSE as recorded, and
# DONTNEED's EINVAL (another process takes only those four, rule R1).
# Both recorders (the launcher and the preload alone).  A trace of format
# 5 does not name the process: its calls are skipped, and said, as before.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
REC=$B/bin/vmrec P=$B/tests/replay/progs/remote_madvise LIB=$B/lib/libvmrec.so TC=$B/tests/shim/tracecalls
need_built "$REC" "$P" "$LIB" "$TC"
[ "$(id -u)" -eq 0 ] || skip_all "process_madvise of another process needs CAP_SYS_NICE (root)"
"$P" >"$T/native" 2>&1
ok $? "remote_madvise runs natively"
(cd "$T" && "$REC" -o "$T/l.vmt" -- "$P" >"$T/l.out" 2>&1)
is "$?:$(cat "$T/l.out")" "0:$(cat "$T/native")" "recorded by the launcher: as natively"
LD_PRELOAD=$LIB VMREC_OUT=$T/p.vmt "$P" >"$T/p.out" 2>&1
is "$?:$(cat "$T/p.out")" "0:$(cat "$T/native")" "recorded preloaded: as natively"

pm_results() {
	"$PYTHON" -c '
import json, sys
print(" ".join("%s/%s" % (e["outcome"], e["errno"]) for e in json.load(open(sys.argv[1]))["per_event"]
               if e["op"] == "process_madvise"))
' "$1"
}
# the recorded results, as the replays must give them
want=$(awk '{ print ($2 == "refused" || $2 ~ /^-/) ? "failed/22" : "unchanged/0" }' "$T/native" | tr '\n' ' ' | sed 's/ $//')
for r in l p; do
	# every iovec record names the child: the pid of the clone's result
	child=$("$B/bin/vmtrace" dump "$T/$r.vmt" | awk '$2 ~ /^clone\(/ { print $NF; exit }')
	targets=$("$TC" -a "$T/$r.vmt" | awk '$1 == "ranges" && $6 == 1 { sub(/.* target /, ""); print }' | sort -u)
	is "$targets" "$child" "$r: each process_madvise names the child ($child)"
	res=$("$TC" -a "$T/$r.vmt" | awk -v c="$child" '$1 == "residency" && $2 == c' | wc -l)
	ok $([ "$res" -ge 4 ]; echo $?) "$r: the child's pages before each call are recorded under its pid ($res records)"
	"$V" -q --strict --per-event --json "$T/k$r.json" "$T/$r.vmt" >/dev/null 2>"$T/k$r.err"
	ok $? "$r: this kernel: --strict"
	sed 's/^/# /' "$T/k$r.err"
	is "$(pm_results "$T/k$r.json")" "$want" "$r: this kernel: each call on the child's replayer, as recorded"
	"$V" -q --strict --target sim --kernel host --per-event --json "$T/s$r.json" "$T/$r.vmt" >/dev/null 2>"$T/s$r.err"
	ok $? "$r: the simulator: --strict"
	sed 's/^/# /' "$T/s$r.err"
	is "$(pm_results "$T/s$r.json")" "$want" "$r: the simulator: each call in the child's model, as recorded"
done
"$PYTHON" "$S/tests/vm/selftests_cmp.py" "$T/kl.json" "$T/sl.json" >"$T/cmp" 2>&1
ok $? "the simulator agrees with this kernel on every event: $(tail -n 1 "$T/cmp")"

# format 5 (recorded before the target was): skipped and said
v5=$S/tests/replay/data/remote-madvise-v5.lz4
"$V" -q --strict --per-event --json "$T/k5.json" "$v5" >/dev/null 2>"$T/k5.err"
ok $? "format 5: this kernel replays it"
is "$(grep -c "worked on another process's memory when recorded: not replayed" "$T/k5.err")" 4 \
	"format 5: the four calls on the child's memory are skipped, and said"
done_testing

#!/bin/sh
# shmat, shmdt, mlockall and munlockall are replayed, not skipped: on this
# kernel (a stand-in segment per recorded shmid, gone with the replay) and
# in the simulator, agreeing event by event; a trace without the segment's
# size, or a lower RLIMIT_MEMLOCK here, says so.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
REC=$B/bin/vmrec
PROG=$B/tests/replay/progs/shm_lock
need_built "$REC" "$B/lib/libvmrec.so" "$PROG"
if ldd "$PROG" 2>/dev/null | grep -q libasan; then
	skip_all "shm_lock built with AddressSanitizer, cannot be recorded"
fi
"$PROG" >"$T/native" 2>&1
[ $? -eq 77 ] && skip_all "SysV shared memory unavailable here ($(cat "$T/native"))"

# shm/lock events only: op outcome mismatch
calls() {
	"$PYTHON" -c '
import json, sys
for e in json.load(open(sys.argv[1]))["per_event"]:
    if e["op"] in ("shmat", "shmdt", "mlockall", "munlockall"):
        print(e["op"], e["outcome"], "MISMATCH" if e["mismatch"] else "ok")
' "$1"
}

(cd "$T" && "$REC" -o "$T/shm.vmt" -- "$PROG" >"$T/rec.out" 2>&1)
is "$(cat "$T/rec.out")" "PASS" "recorded: the program runs unchanged under the recorder"

"$V" --strict --per-event --json "$T/k.json" "$T/shm.vmt" >"$T/k.out" 2>&1
ok $? "kernel: $(grep '^fidelity: checkpoints' "$T/k.out")"
calls "$T/k.json" >"$T/k.calls"
cat >"$T/want" <<'EOF2'
shmat new ok
shmat new ok
shmdt failed ok
shmdt remove ok
shmat new ok
shmdt remove ok
shmdt remove ok
mlockall unchanged ok
munlockall unchanged ok
mlockall unchanged ok
munlockall unchanged ok
EOF2
is_file "$T/k.calls" "$T/want" "kernel: each shm and lock call replayed, with its outcome"

"$V" -q --placement kernel --per-event --json "$T/kp.json" "$T/shm.vmt"
calls "$T/kp.json" >"$T/kp.calls"
is_file "$T/kp.calls" "$T/want" "kernel placement: attachments placed by this kernel, the same outcomes"

"$V" --strict --target sim --kernel host --per-event --json "$T/s.json" "$T/shm.vmt" >"$T/s.out" 2>&1
ok $? "sim: $(grep '^fidelity: checkpoints' "$T/s.out")"
calls "$T/s.json" >"$T/s.calls"
is_file "$T/s.calls" "$T/want" "sim: the same outcomes"
"$PYTHON" "$S/tests/replay/agree_cmp.py" "$T/k.json" "$T/s.json" >"$T/cmp"
ok $? "kernel and sim agree on every event: $(tail -1 "$T/cmp")"
sed '$d; s/^/# /' "$T/cmp"

# a segment of an unusual size, attached twice under one recorded shmid
SIZE=12579
{ base_map; cat <<EOF2
file 100 1 $SIZE SYSV00000000
ev 100 shmat 7 0 0 0 0 0 = 0x20000000 file=1
ev 100 shmat 7 0 4096 0 0 0 = 0x20010000 file=1
ck 100 4 8 1
ev 100 shmdt 0x20000000 0 0 0 0 0 = 0
ev 100 shmdt 0x20010000 0 0 0 0 0 = 0
ck 100 4 6 1
EOF2
} | mk twice
cat >"$T/want" <<'EOF2'
100 shmat new 6 ok
100 shmat new 7 ok
100 shmdt remove 6 ok
100 shmdt remove 5 ok
EOF2
# kernel|sim : vmreplay's options for that back end
target_opts() { [ "$1" = sim ] && echo "--target sim --kernel host" || echo "--target kernel"; }

for target in kernel sim; do
	"$V" -q --strict $(target_opts $target) --per-event --json "$T/t.json" "$T/twice.vmt"
	ok $? "$target: two attachments of one segment, every checkpoint matched"
	per_event "$T/t.json" >"$T/got"
	is_file "$T/got" "$T/want" "$target: attached where recorded, detached whole"
done
is "$(awk -v s=$SIZE '$4 == s' /proc/sysvipc/shm 2>/dev/null)" "" "no stand-in segment outlives the replay"

# SHM_REMAP over the program's own mapping (the replay owns it): replaced
{ base_map; cat <<'EOF2'
file 100 1 8192 SYSV00000000
ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000
ev 100 shmat 7 0x20000000 16384 0 0 0 = 0x20000000 file=1
ck 100 4 8 1
EOF2
} | mk remap
cat >"$T/want" <<'EOF2'
100 mmap new 6 ok
100 shmat new 7 ok
EOF2
for target in kernel sim; do
	"$V" -q --strict $(target_opts $target) --per-event --json "$T/t.json" "$T/remap.vmt"
	ok $? "$target: SHM_REMAP over the program's mapping, checkpoint matched"
	per_event "$T/t.json" >"$T/got"
	is_file "$T/got" "$T/want" "$target: the attachment replaces its first two pages"
done

# a fork child inherits the attachment: it detaches it after its parent did
{ base_map; cat <<'EOF2'
file 100 1 8192 SYSV00000000
ev 100 shmat 7 0 0 0 0 0 = 0x20000000 file=1
ev 100 fork 0 0 0 0 0 0 = 101
process 101 100 0
ev 100 shmdt 0x20000000 0 0 0 0 0 = 0
ck 100 4 6 1
ev 101 shmdt 0x20000000 0 0 0 0 0 = 0
ck 101 4 6 1
EOF2
} | mk inherit
cat >"$T/want" <<'EOF2'
100 shmat new 6 ok
100 fork unchanged 6 ok
100 shmdt remove 5 ok
101 shmdt remove 5 ok
EOF2
for target in kernel sim; do
	"$V" -q --strict $(target_opts $target) --per-event --json "$T/t.json" "$T/inherit.vmt"
	ok $? "$target: parent and fork child each detach the inherited attachment"
	per_event "$T/t.json" >"$T/got"
	is_file "$T/got" "$T/want" "$target: the child's shmdt removes its copy"
done

# a trace without the segment's size (recorded before vmrec gave it)
{ base_map; cat <<'EOF2'
ev 100 shmat 7 0 0 0 0 0 = 0x20000000
ev 100 shmdt 0x20000000 0 0 0 0 0 = 0
EOF2
} | mk nosize
for target in kernel sim; do
	"$V" -q $(target_opts $target) "$T/nosize.vmt" 2>"$T/err"
	is "$(cat "$T/err")" "vmreplay: $T/nosize.vmt: event 0 (shmat): the trace does not give the segment's size: skipped
vmreplay: $T/nosize.vmt: event 1 (shmdt): the trace does not give the length of the attachment at 0x20000000: skipped" "$target: no size: shmat and its shmdt skipped, and said"
done

# mlockall refused here (no CAP_IPC_LOCK, RLIMIT_MEMLOCK 0) but not when recorded
{ base_map; cat <<'EOF2'
ev 100 mlockall 1 0 0 0 0 0 = 0
EOF2
} | mk lockall
if [ "$(id -u)" -eq 0 ] && ! command -v setpriv >/dev/null 2>&1; then
	skip "root without setpriv: cannot drop CAP_IPC_LOCK"
else
	NOCAP=
	[ "$(id -u)" -eq 0 ] && NOCAP="setpriv --inh-caps=-ipc_lock --bounding-set=-ipc_lock"
	(ulimit -l 0 && $NOCAP "$V" -q --strict "$T/lockall.vmt") 2>"$T/err"
	st=$?
	is "$st $(cat "$T/err")" "1 vmreplay: $T/lockall.vmt: event 0 (mlockall): RLIMIT_MEMLOCK here (ulimit -l) is below what the recording locked
vmreplay: $T/lockall.vmt: event 0 (mlockall): failed here (Operation not permitted), succeeded when recorded" "mlockall failing here: a counted mismatch, and why"
fi
done_testing

#!/bin/sh
# A trace whose steps can never all run ends with an error naming the
# event, never a hang: here pid 200's thread calls come before the fork
# that makes pid 200, so its lanes would wait for each other forever
# (--threads) and the turns would stop at its first step (without).  Each
# run is under timeout 60: a kill fails the test; no timing is asserted.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

cat <<'EOF2' | mk early
process 100 1 0
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
end
ck 100 1 2 0
process 200 100 0
ev 100 fork 0 0 0 0 0 0 = 200
ev 200 mmap 0x20000000 0x1000 3 0x32 -1 0 = 0x20000000 tid=201
ev 200 munmap 0x20000000 0x1000 0 0 0 0 = 0
EOF2
want="vmreplay: $T/early.vmt: bad: pid 200 has a record at seq 4, before the fork that makes it (event seq 5)"
for args in "--threads" "" "--threads --target sim"; do
	timeout 60 "$V" -q $args "$T/early.vmt" >"$T/out" 2>"$T/err"
	st=$?
	is "$st" 2 "vmreplay $args: exits 2 (124: killed by the timeout)"
	is "$(cat "$T/err")" "$want" "vmreplay $args: names the record and the fork"
done
timeout 60 "$B/bin/vmtrace" check "$T/early.vmt" >"$T/out"
is "$?:$(cat "$T/out")" "1:$T/early.vmt: bad: pid 200 has a record at seq 4, before the fork that makes it (event seq 5)" \
	"vmtrace check refuses it the same way"
# A vfork returns after its child exec'ed or exited: the child's records
# before the recorded vfork are right, and the replay starts the child
# there (the turns used to wait for it forever).
cat <<'EOF2' | mk vfork
process 100 1 0
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
end
ck 100 1 2 0
process 200 100 0
ev 200 mmap 0 0x1000 3 0x22 -1 0 = 0x20000000
ev 200 exit_group 0 0 0 0 0 0 = 0 noreturn
ev 100 vfork 0 0 0 0 0 0 = 200
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x20004000
ck 100 3 3 0
EOF2
"$B/bin/vmtrace" check "$T/vfork.vmt" >/dev/null
ok $? "a vfork child's records before the vfork check OK"
for args in "" "--threads" "--target sim"; do
	timeout 60 "$V" -q --strict $args "$T/vfork.vmt" >"$T/out" 2>"$T/err"
	is "$?:$(cat "$T/err")" "0:" "vmreplay $args: the vfork child replays (124: killed by the timeout)"
done
done_testing

#!/bin/sh
# Corrupt traces: vmtrace check and every vmreplay target apply the same
# rules (traces/vmt_check.c) and end with a one-line error and a non-zero
# status, never a crash or a hang (each command runs under timeout 60: a
# kill is a failure, not a timing measurement).
. "$(dirname "$0")/../lib.sh"
MK=$B/tests/replay/progs/mktrace V=$B/bin/vmreplay VT=$B/bin/vmtrace
need_built "$MK" "$V" "$VT"
cd "$T"

head_script() {
	cat <<'EOF2'
process 100 1 0
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
end
ck 100 1 2 0
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x20000000
flush
EOF2
}
tail_script() {
	cat <<'EOF2'
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x20002000
ev 100 munmap 0x20002000 0x1000 0 0 0 0 = 0
flush
EOF2
}
head_script | "$MK" a.vmt
{ head_script; tail_script; } | "$MK" b.vmt
"$VT" check b.vmt >/dev/null
ok $? "the whole trace checks OK"

# not corrupt: after an exec the new image's writer starts with a chunk of
# files only, whose first_seq is 0 (no event written yet), after the same
# thread's chunks with events
{ head_script; cat <<'EOF2'
ev 100 execve 0 0 0 0 0 0 = 0 noreturn
flush
rewrite 100
file 100 7 4096 /usr/lib/after-exec.so
flush
process 100 1 1
map 100
vma 0x10000000 0x10001000 r-- exe
end
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x20000000
EOF2
} | "$MK" exec.vmt
"$VT" check exec.vmt >exec.out
is "$?:$(cut -d: -f2 exec.out)" "0: OK" "a files-only chunk at seq 0 after an exec is no seq going back"

# the second chunk appended twice: its seqs are used twice
a=$(stat -c %s a.vmt)
{ cat b.vmt; tail -c +$((a + 1)) b.vmt; } >dup.vmt
# the trace cut inside its last chunk
{ head_script; tail_script; echo 'trunc -20'; } | "$MK" cut.vmt
# an event of pid 200, which has no process record
{ head_script; echo 'ev 200 mmap 0 0x1000 3 0x22 -1 0 = 0x20004000'; } | "$MK" orphan.vmt
# a residency record whose start is not page-aligned (the simulator once
# spun on it)
{ head_script; echo 'res 100 0x20000010 1 01'; } | "$MK" resalign.vmt

# run NAME CMD... : "STATUS LINES" of its stderr+stdout, "killed" on timeout
run() {
	name=$1; shift
	timeout 60 "$@" >"$name.out" 2>&1
	st=$?
	[ $st -eq 124 ] && { echo killed; return; }
	echo "$st $(wc -l <"$name.out")"
}
for c in dup cut orphan resalign; do
	r=$(run "$c.check" "$VT" check "$c.vmt")
	case $r in 1\ 1) ok 0 "$c: vmtrace check: one line, exit 1" ;;
	*) ok 1 "$c: vmtrace check: one line, exit 1 (got $r: $(cat "$c.check.out"))" ;; esac
	for target in kernel sim; do
		r=$(run "$c.$target" "$V" -q --target "$target" "$c.vmt")
		case $r in [12]\ 1) ok 0 "$c: vmreplay --target $target: one line, non-zero exit" ;;
		*) ok 1 "$c: vmreplay --target $target: one line, non-zero exit (got $r: $(cat "$c.$target.out"))" ;; esac
	done
done
grep -qE '^dup\.vmt: bad: event seq [0-9]+ \([a-z]+, pid 100 tid 100\) used twice \(record [0-9]+\)$' dup.check.out
ok $? "a chunk written twice is a seq used twice, named ($(cat dup.check.out))"
is "$(cat orphan.check.out)" "orphan.vmt: bad: event seq 5 (mmap) of pid 200, which has no process record (record 5)" \
	"an event without its process names the event"
is "$(cat orphan.kernel.out)" "vmreplay: orphan.vmt: bad: event seq 5 (mmap) of pid 200, which has no process record (record 5)" \
	"vmreplay refuses it with the same words, before replaying"
is "$(cat resalign.sim.out)" "vmreplay: resalign.vmt: bad: residency record whose start is not page-aligned (record 5)" \
	"the simulator never sees an unaligned residency record"
done_testing

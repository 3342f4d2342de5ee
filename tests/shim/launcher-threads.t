#!/bin/sh
# Threads under the vmrec launcher.  Once libvmrec is live in a process,
# a new thread and its end cost the launcher no stop but the new task's
# first (ptrace's auto-attach): libvmrec's clones are issued in its
# trampoline page with CLONE_PTRACE, glibc's exit(0) at a thread's end
# too (docs/shim.md, "Two recorders").  Every thread stays traced: the
# raw calls each makes in the program's own text are recorded by the
# launcher and succeed, a thread made by a raw clone in the program's
# text too, and every call strace -f sees is in the trace.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace PR=$B/tests/shim/progs/launch_threads
need_built "$V" "$VT" "$PR"
have_strace || skip_all "strace cannot trace here"
cd "$T" || exit 1

N=40
"$V" -o r.lz4 -- "$PR" $N >out 2>err
is "$?:$(cat out)" "0:ok" "every thread's calls succeed, raw ones too"
like "$("$VT" check r.lz4)" "OK: " "the trace checks OK"
"$TC" r.lz4 >r.txt
is "$(grep -c ' mmap 0 0x5000 .* LAUNCHER$' r.txt)" $((N + 1)) \
	"each thread's raw mmap is the launcher's, the raw clone's thread's too"
is "$(grep -c ' mmap 0 0x7000 ' r.txt)" "$N" "each thread's libc mmap is recorded"

# call for call as strace -f shows them, thread by thread
strace -f -qq -e trace=mmap,munmap,madvise,clone,clone3,exit -o s.txt "$PR" $N >/dev/null 2>&1
names() { awk '$2 !~ /^</ { n = $2; sub(/\(.*/, "", n); c[n]++ } END { for (k in c) print k, c[k] }' "$1" | sort; }
"$VT" dump r.lz4 | grep -E ' (mmap|munmap|madvise|clone|clone3|exit)\(' >d.txt
names s.txt >s.n
names d.txt >d.n
is_file d.n s.n "the calls strace -f sees, counted by name"

# the launcher's stops: as many as without the threads, plus one for
# each new task's first stop (ptrace's auto-attach), not four
stops() {
	strace -qq -e trace=wait4 -o w.txt "$V" -o s.lz4 -- "$PR" "$1" plain >/dev/null 2>&1
	grep -c 'WIFSTOPPED' w.txt
}
s0=$(stops 0) sn=$(stops $N)
is "$((sn - s0))" "$N" "$N threads cost the launcher $N stops ($s0 without them)"

# a thread a library's constructor starts before libvmrec is live (the
# launcher records its clone) and that ends after: its exit(0) comes
# through the trampoline, so the launcher asks for its exit stop
CM=$B/tests/shim/ctor_maps
need_built "$CM"
CTOR_THREAD=1 "$V" -o c.lz4 -- "$CM" >out 2>err
is "$?:$(cat out):$(cat err)" "3:ctor 42:" "an early thread: the program runs as natively"
strace -f -qq -e trace=exit,clone,clone3 -o cs.txt env CTOR_THREAD=1 "$CM" >/dev/null 2>&1
"$VT" dump c.lz4 | grep -E ' (clone|clone3|exit)\(' >cd.txt
names cs.txt >cs.n
names cd.txt >cd.n
is_file cd.n cs.n "its clone and its exit, as strace -f sees them"
"$TC" c.lz4 | grep -q '^[0-9]* [0-9]* exit 0 = ? LAUNCHER$'
ok $? "its exit is the launcher's"

# a thread's execve (a static program: the launcher records the call):
# the exec stop comes with the leader's pid, the call was the thread's,
# whose tid the launcher asks for where the process has other tasks
TE=$B/tests/shim/static_thread_exec
need_built "$TE"
"$V" -o e.lz4 -- "$TE" /bin/echo hi >out 2>err
is "$?:$(cat out)" "0:hi" "a thread's execve runs the new image"
like "$("$VT" check e.lz4)" "OK: " "the trace checks OK"
"$TC" e.lz4 | grep -q ' execve .* = ? LAUNCHER file='
ok $? "and has the thread's execve, finished at the exec stop"
done_testing

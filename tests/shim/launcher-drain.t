#!/bin/sh
# Under the vmrec launcher the recorded threads only log their records into
# their slabs and the launcher makes the chunks (docs/store.md): a trace
# recorded that way holds every call once, over hundreds of slabs and
# with several threads sealing at once; with the launcher killed midway
# the writers make their own chunks again, the program runs on, and `vmrec --finish`
# gives every call recorded until then (the program goes with the
# launcher: PTRACE_O_EXITKILL, since its seccomp filter would fail every
# recorded call without a tracer).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace LOOP=$B/tests/replay/progs/brk_loop
need_built "$V" "$VT" "$LOOP" "$P/thread_storm" "$P/threads_loop"

brks() { "$VT" stats "$1" | awk '$1 == "brk" { print $2 }'; }

# one thread, 340,000 brk calls: ~150 slabs sealed and drained
"$V" -o "$T/a.lz4" -- "$LOOP" 20000 >/dev/null
is "$?" 0 "a brk loop recorded under the launcher"
like "$("$VT" check "$T/a.lz4")" "OK: " "its trace checks OK"
record "$T/p.lz4" "$LOOP" 20000 >/dev/null
a=$(brks "$T/a.lz4") p=$(brks "$T/p.lz4")
is "$a" "$((p + 1))" "as many brk calls as recorded without the launcher ($p), and the loader's brk(NULL)"
start=$((p - 340000))
ok "$([ "$start" -ge 0 ] && [ "$start" -lt 20 ]; echo $?)" "the loop's 340,000 and $start of start-up"

# threads: every thread's calls, the same as without the launcher
"$V" -o "$T/t.lz4" -- "$P/thread_storm" >/dev/null 2>&1
is "$?" 0 "thread_storm recorded under the launcher"
like "$("$VT" check "$T/t.lz4")" "OK: " "its trace checks OK"
record "$T/tp.lz4" "$P/thread_storm" >/dev/null 2>&1
"$TC" "$T/t.lz4" | awk '{ print $3 }' | sort | uniq -c >"$T/t.calls"
"$TC" "$T/tp.lz4" | awk '{ print $3 }' | sort | uniq -c >"$T/tp.calls"
is "$(awk '/clone|exit/' "$T/t.calls")" "$(awk '/clone|exit/' "$T/tp.calls")" \
   "the same thread starts and exits as without the launcher"

# four threads sealing slabs at once, the launcher draining them all
"$V" -o "$T/l.lz4" -- "$P/threads_loop" 4 20000
is "$?" 0 "four threads of 40,000 calls each recorded under the launcher"
like "$("$VT" check "$T/l.lz4")" "OK: " "its trace checks OK"
"$TC" "$T/l.lz4" | awk '$3 == "mmap" && $5 == "0x1000" { m++ } $3 == "munmap" && $5 == "0x1000" { u++ }
	END { print m + 0, u + 0 }' >"$T/l.counts"
if carries_asan "$P/threads_loop"; then
	skip "threads_loop built with AddressSanitizer: ASan maps pages of its own for each thread"
else
	is "$(cat "$T/l.counts")" "80000 80000" "every thread's page mmaps and munmaps, once each"
fi

# the launcher killed while the loop runs: nothing waits for it
"$V" -o "$T/k.lz4" -- "$LOOP" 100000 >/dev/null 2>&1 &
launcher=$!
i=0
while [ $i -lt 200 ] && ! ls "$T"/k.lz4.vmrec-store.* >/dev/null 2>&1; do sleep 0.01; i=$((i + 1)); done
sleep 0.2
prog=$(pgrep -P "$launcher" | head -1)
kill -9 "$launcher"
wait "$launcher" 2>/dev/null
store=$(ls "$T"/k.lz4.vmrec-store.* 2>/dev/null)
pid=${prog:-0}
i=0
while [ $i -lt 3000 ] && kill -0 "$pid" 2>/dev/null; do sleep 0.01; i=$((i + 1)); done
ok "$(kill -0 "$pid" 2>/dev/null; [ $? -ne 0 ]; echo $?)" "the program does not outlive its launcher"
"$V" --finish "$store"
is "$?" 0 "vmrec --finish made the trace"
like "$("$VT" check "$T/k.lz4")" "OK: " "its trace checks OK"
n=$(brks "$T/k.lz4")
ok "$([ "${n:-0}" -gt "$start" ] && [ "$n" -lt $((1700000 + start)) ]; echo $?)" \
   "the brk calls made before the kill are in it ($n)"
ls -l "$T"/k.lz4 >/dev/null 2>&1
done_testing

#!/bin/sh
# The order every reader sees (docs/trace-format.md, "Order"): calls that
# overlapped in time are put where the kernel could have made them, and
# `vmtrace check` fails a trace no order of the recorded times explains,
# naming both calls.  Traces written with mktrace (seq= and end= give each
# call its interval) and one imported from a crafted strace log.
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace MK=$B/tests/replay/progs/mktrace
need_built "$V" "$MK" "$B/tests/trace/progs/trace_read" "$B/bin/vmreplay"

head_map() {
	cat <<'EOF'
process 100 1 0
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x10100000 0x10102000 rw- [heap]
vma 0x30000000 0x30021000 rw- [stack]
end
EOF
}
# order NAME < SCRIPT: the trace's calls as `vmtrace dump` prints them
order() {
	{ head_map; cat; } | "$MK" "$T/$1.vmt"
	"$V" dump "$T/$1.vmt" | sed 's/  */ /g'
}

# two threads given one range: the long mmap (it began first, returned
# last) goes after the short one's munmap that freed it
got=$(order given <<'EOF'
ev 100 mmap 0 0x100000 3 0x22 -1 0 = 0x7f0000000000 tid=101 seq=10 end=30
ev 100 mmap 0 0x100000 3 0x22 -1 0 = 0x7f0000000000 tid=102 seq=11 end=12
ev 100 munmap 0x7f0000000000 0x100000 0 0 0 0 = 0 tid=102 seq=13 end=14
ev 100 munmap 0x7f0000000000 0x100000 0 0 0 0 = 0 tid=101 seq=31 end=32
EOF
)
is "$got" "102 mmap(NULL, 1048576, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000
102 munmap(0x7f0000000000, 1048576) = 0
101 mmap(NULL, 1048576, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000
101 munmap(0x7f0000000000, 1048576) = 0" "one range given twice: the holder that returned first, its munmap, then the other"
like "$("$V" check "$T/given.vmt")" "OK: 4 events" "vmtrace check: OK"

# a munmap that returned late freed the range another thread's mmap got
got=$(order freed <<'EOF'
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000000000 tid=101 seq=5 end=6
ev 100 munmap 0x7f0000000000 0x2000 0 0 0 0 = 0 tid=101 seq=10 end=40
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000000000 tid=102 seq=11 end=12
ev 100 mprotect 0x7f0000000000 0x1000 1 0 0 0 = 0 tid=102 seq=13 end=14
EOF
)
is "$got" "101 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000
101 munmap(0x7f0000000000, 8192) = 0
102 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000
102 mprotect(0x7f0000000000, 4096, PROT_READ) = 0" "a late-returning munmap goes before the mmap given its range"

# an mprotect that overlapped a munmap of its range came first
got=$(order change <<'EOF'
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000000000 seq=10 end=11
ev 100 munmap 0x7f0000000000 0x2000 0 0 0 0 = 0 seq=12 end=14
ev 100 mprotect 0x7f0000000000 0x1000 1 0 0 0 = 0 tid=101 seq=13 end=20
EOF
)
is "$got" "100 mmap(NULL, 8192, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000
101 mprotect(0x7f0000000000, 4096, PROT_READ) = 0
100 munmap(0x7f0000000000, 8192) = 0" "a successful mprotect goes before the munmap of its range it overlapped"

# brk from two threads: the query that answered the new break goes after it
got=$(order brk <<'EOF'
ev 100 brk 0 0 0 0 0 0 = 0x10102000 seq=9 end=10
ev 100 brk 0x10103000 0 0 0 0 0 = 0x10103000 seq=10 end=20
ev 100 brk 0 0 0 0 0 0 = 0x10103000 tid=101 seq=11 end=12
EOF
)
is "$got" "100 brk(NULL) = 0x10102000
100 brk(0x10103000) = 0x10103000
101 brk(NULL) = 0x10103000" "a brk that answered another thread's new break goes after it"

# two calls that end together by seq, where the clock tells: the mmap
# that filled the hole returned (t + lat) before the munmap of its lower
# neighbour entered the kernel (t), so it goes first although it began
# later (a thread held between its seq and its munmap: order_threads fork)
got=$(order clock <<'EOF'
ev 100 mmap 0 0x10000 3 0x22 -1 0 = 0x7f0000010000 tid=101 seq=1 end=2 t=1000 lat=10
ev 100 mmap 0 0x10000 3 0x22 -1 0 = 0x7f0000030000 tid=102 seq=3 end=4 t=2000 lat=10
ev 100 munmap 0x7f0000010000 0x10000 0 0 0 0 = 0 tid=101 seq=5 end=40 t=100000 lat=10
ev 100 mmap 0 0x10000 3 0x22 -1 0 = 0x7f0000020000 tid=103 seq=20 end=40 t=50000 lat=10
EOF
)
is "$(echo "$got" | tail -2)" "103 mmap(NULL, 65536, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000020000
101 munmap(0x7f0000010000, 65536) = 0" "a call the clock shows returned before another entered the kernel goes first"
got=$(order noclock <<'EOF'
ev 100 mmap 0 0x10000 3 0x22 -1 0 = 0x7f0000010000 tid=101 seq=1 end=2
ev 100 mmap 0 0x10000 3 0x22 -1 0 = 0x7f0000030000 tid=102 seq=3 end=4
ev 100 munmap 0x7f0000010000 0x10000 0 0 0 0 = 0 tid=101 seq=5 end=40
ev 100 mmap 0 0x10000 3 0x22 -1 0 = 0x7f0000020000 tid=103 seq=20 end=40
EOF
)
is "$(echo "$got" | tail -2)" "101 munmap(0x7f0000010000, 65536) = 0
103 mmap(NULL, 65536, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000020000" \
	"without times, calls that end together go in the order they began"

# a handler's mmap (tid 107), long in the recorder's view, was given the
# page another thread's mmap (tid 110, seq 312) got and unmapped while it
# ran: it goes last.  Beside it two threads map and unmap the next pages
# in orders that each fit, so trying them all to learn that seq 312 cannot
# fit after tid 107's mmap ran past the search's budget, which then let
# the mmap go first (signal_storm_threads, about 1 recording in 40; this
# is what was left of one such trace's window, cut down)
got=$(order budget <<'EOF'
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000003000 tid=108 seq=19 end=21
ev 100 munmap 0x7f0000003000 0x2000 0 0 0 0 = 0 tid=108 seq=23 end=897
ev 100 mmap 0 0x1000 1 0x22 -1 0 = 0x7f0000001000 tid=107 seq=252 end=348
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000002000 tid=109 seq=256 end=258
ev 100 munmap 0x7f0000004000 0x2000 0 0 0 0 = 0 tid=109 seq=292 end=294
ev 100 munmap 0x7f0000002000 0x2000 0 0 0 0 = 0 tid=110 seq=293 end=296
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000004000 tid=109 seq=294 end=295
ev 100 mprotect 0x7f0000004000 0x1000 1 0 0 0 = 0 tid=109 seq=295 end=297
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000002000 tid=110 seq=296 end=298
ev 100 munmap 0x7f0000004000 0x2000 0 0 0 0 = 0 tid=109 seq=297 end=299
ev 100 mprotect 0x7f0000002000 0x1000 1 0 0 0 = 0 tid=110 seq=298 end=300
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000004000 tid=109 seq=299 end=301
ev 100 munmap 0x7f0000002000 0x2000 0 0 0 0 = 0 tid=110 seq=300 end=312
ev 100 mprotect 0x7f0000004000 0x1000 1 0 0 0 = 0 tid=109 seq=301 end=302
ev 100 munmap 0x7f0000004000 0x2000 0 0 0 0 = 0 tid=109 seq=302 end=303
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000004000 tid=109 seq=303 end=304
ev 100 mprotect 0x7f0000004000 0x1000 1 0 0 0 = 0 tid=109 seq=304 end=305
ev 100 mprotect 0x7f0000004000 0x1000 1 0 0 0 = 0 tid=109 seq=310 end=316
ev 100 mmap 0 0x1000 1 0x22 -1 0 = 0x7f0000003000 tid=109 seq=311 end=313
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000001000 tid=110 seq=312 end=314
ev 100 munmap 0x7f0000003000 0x1000 0 0 0 0 = 0 tid=109 seq=313 end=315
ev 100 munmap 0x7f0000001000 0x2000 0 0 0 0 = 0 tid=110 seq=315 end=317
EOF
)
is "$(echo "$got" | tail -2)" "110 munmap(0x7f0000001000, 8192) = 0
107 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000001000" \
	"a call that no order of the others lets the page's next holder fit after goes after it"
like "$("$V" check "$T/budget.vmt")" "OK: 22 events" "vmtrace check: OK"

# a residency record stays right before its event when the event moves
{ head_map; cat <<'EOF'
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000000000 tid=101 seq=5 end=6
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000002000 tid=102 seq=8 end=9
res 100 0x7f0000000000 2 03 seq=10 tid=101
ev 100 munmap 0x7f0000000000 0x2000 0 0 0 0 = 0 tid=101 seq=10 end=40
res 100 0x7f0000002000 2 01 seq=11 tid=102
ev 100 munmap 0x7f0000002000 0x2000 0 0 0 0 = 0 tid=102 seq=11 end=12
EOF
} | "$MK" "$T/res.vmt"
is "$("$B/tests/trace/progs/trace_read" -o "$T/res.vmt" | head -6)" "event 5 100 101 mmap
event 8 100 102 mmap
residency 11 100 0x7f0000002000
event 11 100 102 munmap
residency 10 100 0x7f0000000000
event 10 100 101 munmap" "a residency goes with its event, which ended later"

# calls that end at one seq (no record began between their returns): the
# one the clock says returned first goes first, with every residency its
# writer wrote before it.  A munmap that entered the kernel long before
# another thread's mmap and returned after it had not unmapped yet what
# the mmap's neighbour question saw (order_threads fork under load: the
# fork child one VMA off where entry order, or a residency left behind,
# decided)
{ head_map; cat <<'EOF'
ev 100 mmap 0 0x10000 3 0x22 -1 0 = 0x7f0000010000 tid=101 seq=1 end=2 t=1000 lat=10
ev 100 mmap 0 0x10000 3 0x22 -1 0 = 0x7f0000030000 tid=102 seq=3 end=4 t=2000 lat=10
res 100 0x7f0000010000 16 0100 seq=5 tid=101
ev 100 munmap 0x7f0000010000 0x10000 0 0 0 0 = 0 tid=101 seq=5 end=40 t=10000 lat=60000
res 100 0x7f0000010000 1 01 seq=39 tid=103
res 100 0x7f0000030000 1 01 seq=39 tid=103
ev 100 mmap 0 0x10000 3 0x22 -1 0 = 0x7f0000020000 tid=103 seq=39 end=40 t=60000 lat=1000
EOF
} | "$MK" "$T/tie.vmt"
is "$("$B/tests/trace/progs/trace_read" -o "$T/tie.vmt" | sed -n '3,7p')" "residency 39 100 0x7f0000010000
residency 39 100 0x7f0000030000
event 39 100 103 mmap
residency 5 100 0x7f0000010000
event 5 100 101 munmap" "calls that end at one seq: the one the clock says returned first, after all its residencies"
like "$("$V" check "$T/tie.vmt")" "order: 2 calls overlapped one on the same or neighbouring pages: the order they took the mmap_lock in, which decides which VMAs merge, is not recorded" \
	"vmtrace check counts the calls that overlapped on neighbouring pages"

# a fork child's records come after the fork, whatever their seqs say
got=$(order fork <<'EOF'
ev 100 fork 0 0 0 0 0 0 = 200 seq=10 end=30
process 200 100 0
ev 200 mmap 0 0x1000 3 0x22 -1 0 = 0x7f0000100000 seq=12 end=13
EOF
)
is "$got" "100 fork() = 200
200 mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000100000" \
   "a fork child's call comes after the fork, which returned later"

# calls without an end (format 1-3) keep the order they began in
got=$(order points <<'EOF'
ev 100 mmap 0 0x100000 3 0x22 -1 0 = 0x7f0000000000 tid=101 seq=10
ev 100 mmap 0 0x100000 3 0x22 -1 0 = 0x7f0000200000 tid=102 seq=11
EOF
)
is "$got" "101 mmap(NULL, 1048576, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000
102 mmap(NULL, 1048576, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000200000" \
   "calls that do not overlap keep entry order"

# what no kernel could have done: vmtrace check fails and names both calls
{ head_map; cat <<'EOF'
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000000000 tid=101 seq=10 end=11
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x7f0000000000 tid=102 seq=12 end=13
EOF
} | "$MK" "$T/twice.vmt"
"$V" check "$T/twice.vmt" >"$T/out"
is "$?:$(cat "$T/out")" "1:$T/twice.vmt: bad: event seq 12 (pid 100 tid 102 mmap) was given 0x7f0000000000-0x7f0000002000, which event seq 10 (tid 101 mmap) had mapped, in every order the calls' times allow" \
   "one range given to two threads: both calls named"
{ head_map; echo "ev 100 mprotect 0x7f0000000000 0x1000 1 0 0 0 = 0 seq=10"; } | "$MK" "$T/never.vmt"
"$V" check "$T/never.vmt" >"$T/out"
is "$?:$(cat "$T/out")" "1:$T/never.vmt: bad: event seq 10 (pid 100 tid 100 mprotect) succeeded on 0x7f0000000000-0x7f0000001000, which was not mapped then" \
   "an mprotect that succeeded on a range never mapped"
{ head_map; cat <<'EOF'
ev 100 brk 0 0 0 0 0 0 = 0x10102000 seq=9
ev 100 brk 0x10103000 0 0 0 0 0 = 0x10103000 seq=10
ev 100 brk 0 0 0 0 0 0 = 0x10105000 seq=11
EOF
} | "$MK" "$T/brk2.vmt"
"$V" check "$T/brk2.vmt" >"$T/out"
is "$?:$(cat "$T/out")" "1:$T/brk2.vmt: bad: event seq 11 (pid 100 tid 100 brk) returned 0x10105000 where the break was 0x10103000 (event seq 10 (tid 100 brk))" \
   "a brk result that contradicts the break"
"$B/bin/vmreplay" -q "$T/twice.vmt" 2>"$T/err" >/dev/null
like "$(head -1 "$T/err")" "twice.vmt: event seq 12 .* in every order the calls' times allow: it replays as recorded, and differs" \
   "vmreplay says so once and replays"

# the same from an strace log: two threads' mmap lines given one address
cat >"$T/log" <<'LOG'
100   1700000000.000100 execve("/bin/prog", ["prog"], 0x7ffd00001000 /* 3 vars */) = 0 <0.000500>
100   1700000000.000200 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM, child_tid=0x7f00007ff990, parent_tid=0x7f00007ff990, exit_signal=0, stack=0x7f0000000000, stack_size=0x7fff80, tls=0x7f00007ff6c0} => {parent_tid=[101]}, 88) = 101 <0.000040>
100   1700000000.000300 mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f1000000000 <0.000003>
101   1700000000.000400 mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f1000000000 <0.000003>
100   1700000000.000500 exit_group(0)   = ?
LOG
"$V" import-strace "$T/log" -o "$T/log.vmt" >/dev/null 2>"$T/ierr"
like "$?:$(cat "$T/ierr")" "^1:vmtrace: $T/log: written, but it shows what no kernel could have done: " \
   "import-strace writes such a log and exits 1, saying so"
"$V" check "$T/log.vmt" >"$T/out"
is "$?:$(cat "$T/out")" "1:$T/log.vmt: bad: event seq 4 (pid 100 tid 101 mmap) was given 0x7f1000000000-0x7f1000001000, which event seq 3 (tid 100 mmap) had mapped, in every order the calls' times allow" \
   "an imported log that hands one address to two threads: both calls named"
done_testing

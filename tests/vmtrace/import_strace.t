#!/bin/sh
# import-strace on hand-written logs: unfinished/resumed calls, signals,
# exits, calls it skips, threads, and the errors for logs it cannot read.
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace

cat >"$T/log" <<'LOG'
100   1700000000.000100 execve("/bin/prog", ["prog", "-x"], 0x7ffd00001000 /* 3 vars */) = 0 <0.000500>
100   1700000000.000700 brk(NULL)       = 0x555555559000 <0.000002>
100   1700000000.000800 openat(AT_FDCWD, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3 <0.000010>
100   1700000000.000900 mmap(NULL, 8392704, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_STACK, -1, 0) = 0x7f0000000000 <0.000003>
100   1700000000.000950 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f00007ff990, parent_tid=0x7f00007ff990, exit_signal=0, stack=0x7f0000000000, stack_size=0x7fff80, tls=0x7f00007ff6c0} => {parent_tid=[101]}, 88) = 101 <0.000040>
100   1700000000.001000 mmap(NULL, 4096, PROT_READ <unfinished ...>
101   1700000000.001050 madvise(0x7f0000000000, 8368128, MADV_DONTNEED) = 0 <0.000009>
101   1700000000.001060 exit(0)         = ?
100   1700000000.001100 <... mmap resumed>, MAP_PRIVATE, 3, 0) = -1 EACCES (Permission denied) <0.000150>
101   1700000000.001200 +++ exited with 0 +++
100   1700000000.001250 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f0000800a10) = 102 <0.000080>
102   1700000000.001270 brk(0x55555557a000) = 0x55555557a000 <0.000004>
102   1700000000.001280 exit_group(7)   = ?
102   1700000000.001290 +++ exited with 7 +++
100   1700000000.001300 --- SIGCHLD {si_signo=SIGCHLD, si_code=CLD_EXITED, si_pid=102, si_uid=0, si_status=7, si_utime=0, si_stime=0} ---
100   1700000000.001400 munmap(0x7f0000000000, 8392704) = 0 <0.000004>
100   1700000000.001500 exit_group(0)   = ?
100   1700000000.001600 +++ exited with 0 +++
LOG

"$V" import-strace "$T/log" -o "$T/trace" >"$T/out"
ok $? "import-strace exits 0"
is "$(cat "$T/out")" "$T/trace: 12 events, 1 other calls skipped, 1 signals, 3 exits" \
	"it counts events, skipped calls, signals and exits"

cat >"$T/want" <<'WANT'
100   1700000000.000100 execve("/bin/prog", ["prog", "-x"], 0x7ffd00001000 /* 3 vars */) = 0 <0.000500>
100   1700000000.000700 brk(NULL)       = 0x555555559000 <0.000002>
100   1700000000.000900 mmap(NULL, 8392704, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_STACK, -1, 0) = 0x7f0000000000 <0.000003>
100   1700000000.000950 clone3({flags=CLONE_VM|CLONE_FS|CLONE_FILES|CLONE_SIGHAND|CLONE_THREAD|CLONE_SYSVSEM|CLONE_SETTLS|CLONE_PARENT_SETTID|CLONE_CHILD_CLEARTID, child_tid=0x7f00007ff990, parent_tid=0x7f00007ff990, exit_signal=0, stack=0x7f0000000000, stack_size=0x7fff80, tls=0x7f00007ff6c0} => {parent_tid=[101]}, 88) = 101 <0.000040>
101   1700000000.001050 madvise(0x7f0000000000, 8368128, MADV_DONTNEED) = 0 <0.000009>
100   1700000000.001000 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 3, 0) = -1 EACCES (Permission denied) <0.000150>
101   1700000000.001060 exit(0)         = ?
100   1700000000.001250 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f0000800a10) = 102 <0.000080>
102   1700000000.001270 brk(0x55555557a000) = 0x55555557a000 <0.000004>
102   1700000000.001280 exit_group(7)   = ?
100   1700000000.001400 munmap(0x7f0000000000, 8392704) = 0 <0.000004>
100   1700000000.001500 exit_group(0)   = ?
WANT
"$V" dump -ttt -T "$T/trace" >"$T/got"
is_file "$T/got" "$T/want" "dump: calls in the order their lines end (an unfinished call spans the lines to its resumption: it goes before a call that ended on the same line), entry times"

TZ=UTC "$V" dump -tt "$T/trace" | sed -n 2p >"$T/got"
echo "100   22:13:20.000700 brk(NULL)         = 0x555555559000" >"$T/want"
is_file "$T/got" "$T/want" "dump -tt prints the wall clock time of day"
TZ=UTC "$V" dump -t "$T/trace" | sed -n 2p >"$T/got"
echo "100   22:13:20 brk(NULL)                = 0x555555559000" >"$T/want"
is_file "$T/got" "$T/want" "dump -t prints seconds"

"$V" stats --json "$T/trace" >"$T/json"
ok $? "stats --json on the imported trace"
grep -E '^  "(events|errors|processes|threads)"|"mmap": |"(pid|tid)": ' "$T/json" >"$T/got"
cat >"$T/want" <<'W'
  "events": 12,
  "errors": 1,
  "processes": 2,
  "threads": 3,
    "mmap": {"count": 2, "errors": 1, "latency_ns": 153000, "max_latency_ns": 150000},
    {"pid": 100, "tid": 100, "events": 8},
    {"pid": 100, "tid": 101, "events": 2},
    {"pid": 102, "tid": 102, "events": 2}
    {"pid": 100, "ppid": 0, "images": 2, "threads": 2, "events": 10, "exe": "/bin/prog"},
    {"pid": 102, "ppid": 100, "images": 1, "threads": 1, "events": 2, "exe": "/bin/prog"}
W
is_file "$T/got" "$T/want" "threads belong to their process, the fork child is a process"

# logs it cannot read: one line naming the file (and line), exit 1
printf '100   mmap(NULL, 4096, PROT_BOGUS, MAP_PRIVATE, -1, 0) = 0x1000\n' >"$T/badargs"
"$V" import-strace "$T/badargs" -o "$T/x" 2>"$T/err"
is "$?:$(cat "$T/err")" "1:vmtrace: $T/badargs:1: arguments or result that do not parse" \
	"arguments that do not parse"
printf '100   brk(NULL) = 0x1000\nhello world\n' >"$T/garbage"
"$V" import-strace "$T/garbage" -o "$T/x" 2>"$T/err"
is "$?:$(cat "$T/err")" "1:vmtrace: $T/garbage:2: not a line of strace output" "a line that is not strace's"
printf '100   <... mmap resumed>) = 0\n' >"$T/orphan"
"$V" import-strace "$T/orphan" -o "$T/x" 2>"$T/err"
is "$?:$(cat "$T/err")" "1:vmtrace: $T/orphan:1: resumed call that never started" "a resumed call without its start"
printf '100   openat(AT_FDCWD, "/x", O_RDONLY) = 3\n' >"$T/none"
"$V" import-strace "$T/none" -o "$T/x" 2>"$T/err"
is "$?:$(cat "$T/err")" "1:vmtrace: $T/none: no memory or process calls in the log" "a log without VMA calls"
"$V" import-strace "$T/missing" -o "$T/x" 2>"$T/err"
is "$?:$(cat "$T/err")" "1:vmtrace: $T/missing: No such file or directory" "a missing log"
"$V" import-strace "$T/log" >/dev/null 2>&1
is "$?" 2 "usage error without -o"

# strace -y names the file behind an fd: a file record, named by the event
printf '100   mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 3</usr/lib/libz.so.1>, 0) = 0x7f0000000000\n100   mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, 3</usr/lib/libz.so.1>, 0x1000) = 0x7f0000010000\n' >"$T/ylog"
"$V" import-strace "$T/ylog" -o "$T/y" >/dev/null && "$V" check "$T/y" >/dev/null &&
	"$V" stats --json "$T/y" | grep -q '^  "files": 1,$'
ok $? "strace -y: one file record for the library mapped twice"
"$V" dump "$T/y" | sed -n 2p >"$T/got"
echo '100   mmap(NULL, 8192, PROT_READ, MAP_PRIVATE, 3, 0x1000) = 0x7f0000010000' >"$T/want"
is_file "$T/got" "$T/want" "strace -y: the fd prints plain"

# every prefix of a few hard lines: an error or a trace, never a crash
crashed=0
for n in 5 19 31 57 80 120 187 263 333 371; do
	grep -E 'clone3|resumed|execve' "$T/log" | cut -c1-$n >"$T/cut"
	"$V" import-strace "$T/cut" -o "$T/x" >/dev/null 2>&1
	st=$?
	[ "$st" -le 1 ] || { crashed=1; diag "cut at $n: exit $st"; }
done
ok $crashed "lines cut anywhere give a clean error"

# a log without -f: no pid column, no timestamps
printf 'brk(NULL)                               = 0x555555559000\nmunmap(0x7f0000000000, 4096)            = 0\n' >"$T/plain"
"$V" import-strace "$T/plain" -o "$T/p" >/dev/null && "$V" dump "$T/p" >"$T/got"
printf '1     brk(NULL)                         = 0x555555559000\n1     munmap(0x7f0000000000, 4096)      = 0\n' >"$T/want"
is_file "$T/got" "$T/want" "a log without pids belongs to one process"

# execveat keeps its fd and flags (strace -y's fd form too)
cat >"$T/xlog" <<'LOG'
100 execveat(AT_FDCWD, "/bin/prog", ["prog"], 0x7ffd00001000 /* 3 vars */, 0) = -1 ENOENT (No such file or directory)
100 execveat(3</bin/true>, "", ["true"], 0x7ffd00001000 /* 3 vars */, AT_EMPTY_PATH|AT_SYMLINK_NOFOLLOW) = 0
LOG
"$V" import-strace "$T/xlog" -o "$T/xa" >/dev/null && "$V" dump "$T/xa" >"$T/got"
cat >"$T/want" <<'WANT'
100   execveat(AT_FDCWD, "/bin/prog", ["prog"], 0x7ffd00001000 /* 3 vars */, 0) = -1 ENOENT (No such file or directory)
100   execveat(3, "", ["true"], 0x7ffd00001000 /* 3 vars */, AT_SYMLINK_NOFOLLOW|AT_EMPTY_PATH) = 0
WANT
is_file "$T/got" "$T/want" "execveat: its fd and flags as strace prints them"
printf '100 execveat(3, "", ["x"], 0x7ffd00001000 /* 1 var */, AT_BOGUS) = 0\n' >"$T/xbad"
"$V" import-strace "$T/xbad" -o "$T/xb" 2>"$T/err"
is "$?:$(cat "$T/err")" "1:vmtrace: $T/xbad:1: arguments or result that do not parse" \
	"execveat: flags it cannot name are refused"
printf '100 execveat(3, "", ["x"]) = 0\n' >"$T/xbad"
"$V" import-strace "$T/xbad" -o "$T/xb" 2>"$T/err"
is "$?:$(cat "$T/err")" "1:vmtrace: $T/xbad:1: arguments or result that do not parse" \
	"execveat: too few arguments are refused"
# execve's argv and envp in every form strace 6.1 prints (the calls of
# tests/shim/progs/exec_argv.c under strace -f): import, then dump, gives
# the log back
X32='"x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x", "x"'
cat >"$T/alog" <<LOG
100   execve("/tmp/ex", ["/tmp/ex"], 0x7ffe0cb56360 /* 41 vars */) = 0
100   execve("/nonexistent", ["0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef"..., "tab\\there\\"q\\\\", "\\1\\0017"], 0x7ffc5ac4b4e8 /* 41 vars */) = -1 ENOENT (No such file or directory)
100   execve("/nonexistent", [$X32, $X32, ...], 0x7ffc5ac4b4e8 /* 41 vars */) = -1 ENOENT (No such file or directory)
100   execve("/nonexistent", ["a", "b", ... /* 0x7f609cbd4000 */], 0x7f609cbd3ff0 /* 2 vars, unterminated */) = -1 ENOENT (No such file or directory)
100   execve("/nonexistent", ["ok", 0x1], 0x1) = -1 ENOENT (No such file or directory)
100   execve(0x1, ["ok", 0x1], NULL)    = -1 EFAULT (Bad address)
100   execve("/nonexistent", NULL, NULL) = -1 ENOENT (No such file or directory)
100   execve("/nonexistent", [], 0x7ffc5ac4b1a8 /* 0 vars */) = -1 ENOENT (No such file or directory)
100   execve("/nonexistent", [], 0x7ffc5ac4b190 /* 1 var */) = -1 ENOENT (No such file or directory)
100   execve("/nonexistent", [0x7f609cbd3ffd], 0x7ffc5ac4b190 /* 1 var */) = -1 ENOENT (No such file or directory)
100   execve("/nonexistent", 0x7f609cbd4000, 0x7ffc5ac4b190 /* 1 var */) = -1 ENOENT (No such file or directory)
100   execveat(3, "", ["true"], 0x7ffd00001000 /* 3 vars */, AT_EMPTY_PATH) = -1 ENOENT (No such file or directory)
LOG
"$V" import-strace "$T/alog" -o "$T/a" >/dev/null && "$V" dump "$T/a" >"$T/got"
is_file "$T/got" "$T/alog" "execve's argv and envp: strace's form read back prints the same"
"$V" check "$T/a" >/dev/null
ok $? "the imported trace checks"

# strace -v prints envp as an array too: its elements are counted
printf '100   execve("/bin/a\\tb", ["a"], ["A=1", "B=2"]) = -1 ENOENT (No such file or directory)\n' >"$T/vlog"
"$V" import-strace "$T/vlog" -o "$T/v" >/dev/null && "$V" dump "$T/v" >"$T/got"
printf '%s\n' '100   execve("/bin/a\tb", ["a"], NULL /* 2 vars */) = -1 ENOENT (No such file or directory)' >"$T/want"
is_file "$T/got" "$T/want" "strace -v: envp's elements counted (its address is not in the log)"
for bad in '["a" "b"]' '["a", ...x]' '["a"' '["a\q"]' '[..., "a"]'; do
	printf '100   execve("/bin/a", %s, NULL) = 0\n' "$bad" >"$T/blog"
	"$V" import-strace "$T/blog" -o "$T/b" 2>"$T/err"
	is "$?:$(cat "$T/err")" "1:vmtrace: $T/blog:1: arguments or result that do not parse" "argv $bad is refused"
done
printf '100   execve("/bin/a", [], 0x1 /* 3 cats */) = 0\n' >"$T/blog"
"$V" import-strace "$T/blog" -o "$T/b" 2>"$T/err"
is "$?:$(cat "$T/err")" "1:vmtrace: $T/blog:1: arguments or result that do not parse" "an envp comment that is no count is refused"
# a child that runs before its parent's fork returns (as strace -f shows
# most forks): the fork goes before the child's records, which the trace
# rules want, and its completion line writes nothing more
cat >"$T/clog" <<'LOG'
100 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000
100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f0000800a10 <unfinished ...>
102 brk(NULL) = 0x555555559000
100 <... clone resumed>) = 102
102 exit_group(0) = ?
100 exit_group(0) = ?
LOG
"$V" import-strace "$T/clog" -o "$T/ct" >/dev/null
like_ok=$("$V" check "$T/ct")
case $like_ok in *": OK: 5 events, 2 processes"*) ok 0 "the child ran first: the trace checks OK" ;;
*) ok 1 "the child ran first: the trace checks OK"; diag "$like_ok" ;; esac
# a log that says what no kernel did (the break moved by nothing): the
# trace rules refuse it, so no trace is written
printf '100 brk(NULL) = 0x555555559000\n100 brk(NULL) = 0x555555600000\n' >"$T/klog"
"$V" import-strace "$T/klog" -o "$T/kt" >/dev/null 2>"$T/err"
st=$?
like "$st:$(cat "$T/err")" "^1:vmtrace: $T/klog: the log shows what no kernel could have done: .*brk" \
   "two brk(NULL) answers that disagree: refused with one line"
ok "$([ ! -e "$T/kt" ]; echo $?)" "... and no trace is left"
# a pid that made calls before a fork returned it (a reused pid): the
# trace names a process by its pid, so the log is refused, not mis-ordered
cat >"$T/rlog" <<'LOG'
102 brk(NULL) = 0x555555559000
102 exit_group(0) = ?
100 clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f0000800a10) = 102
102 brk(NULL) = 0x555555559000
LOG
"$V" import-strace "$T/rlog" -o "$T/rt" >/dev/null 2>"$T/err"
is "$?:$(cat "$T/err")" "1:vmtrace: $T/rlog:3: pid 102 made calls before the fork that returned it began (a reused pid)" \
   "a reused pid is refused with one line"
is "$("$V" dump "$T/ct" | sed 's/(.*//' | tr -s ' ' | tr '\n' ',')" \
   "100 mmap,100 clone,102 brk,102 exit_group,100 exit_group," \
   "the fork first, once"
done_testing

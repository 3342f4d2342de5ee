#!/bin/sh
# vmtrace dump of an imported strace log equals the log itself: a program
# making known VMA calls (errors, every flag family, a thread, vfork,
# fork, its execve's argv and envp) is traced by real strace; import-strace
# reads the log, dump -ttt -T must print the very same lines (pids,
# timestamps and latencies included).
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace
P=$B/tests/vmtrace/progs/memcalls
need_built "$V" "$P"
command -v strace >/dev/null || skip_all "strace is not installed"
# LeakSanitizer cannot run under ptrace (make asan builds the program too)
ASAN_OPTIONS=detect_leaks=0 strace -f -ttt -T -e trace=%memory,%process -o "$T/log" "$P" 2>"$T/err" ||
	skip_all "strace cannot trace here: $(head -1 "$T/err")"

"$V" import-strace "$T/log" -o "$T/trace" >"$T/out"
ok $? "import-strace accepts strace -f -ttt -T output"
grep -q ' events, ' "$T/out"
ok $? "import-strace reports what it imported"
"$V" check "$T/trace" >/dev/null
ok $? "the imported trace checks"

perl "$S/tests/vmtrace/strace_merge.pl" "$T/log" >"$T/want"
"$V" dump -ttt -T "$T/trace" >"$T/got"
is_file "$T/got" "$T/want" "dump -ttt -T prints what strace printed"
[ "$(wc -l <"$T/want")" -ge 50 ]
ok $? "the comparison covers the program's calls"

# without options: the pid column and the calls, as strace -f -o prints them
sed -E 's/^([0-9]+ +)[0-9]+\.[0-9]+ /\1/; s/ <[0-9.]+>$//' "$T/want" |
	perl -pe 's/^(\d+\s+)(\S.*?\))\s+= /my $h="$1$2"; length($h) < 40 ? $h . " " x (40 - length $h) . "= " : "$h = "/e' >"$T/want_plain"
"$V" dump "$T/trace" >"$T/got_plain"
is_file "$T/got_plain" "$T/want_plain" "plain dump pads to strace's column 40"

for call in 'mmap(NULL, 140737488355328, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = -1 ENOMEM (Cannot allocate memory)' \
	'MADV_??? */) = -1 EINVAL (Invalid argument)' 'mlock2(' 'clone3({flags=CLONE_VM|' \
	'vfork()' 'exit_group(3)' 'MREMAP_MAYMOVE|MREMAP_FIXED' 'shmat(' "execve(\"$P\", [\""; do
	grep -qF "$call" "$T/got"
	ok $? "dump shows: $call"
done
done_testing

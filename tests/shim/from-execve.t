#!/bin/sh
# Under the vmrec launcher every VMA call of every process is recorded
# from its execve on: the loader's, the constructors' that run before
# libvmrec's, static programs' and Go's for their whole life (the
# launcher's ptrace, docs/shim.md "Two recorders"), the same calls as
# strace -f -e trace=%memory,prctl shows, and the program behaves as it
# does natively (status, stdout, stderr).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace
need_built "$V" "$VT" "$B/tests/shim/ctor_maps" "$B/tests/shim/static_hello"
have_strace || skip_all "strace cannot trace here"
cd "$T" || exit 1

# same NAME CMD...: natively, under strace and under vmrec; the same
# status, stdout and stderr, and the same calls in each process.
same() {
	name=$1; shift
	"$@" >n.out 2>n.err </dev/null; nst=$?
	rm -f s.[0-9]*
	# one file a process: no call cut in two by another's
	strace -ff -qq -e trace=%memory,prctl,execve -o s "$@" >/dev/null 2>&1 </dev/null
	for f in s.[0-9]*; do sed "s/^/${f#s.} /" "$f"; done >s.txt
	"$V" -o r.lz4 -- "$@" >r.out 2>r.err </dev/null; rst=$?
	is "$rst" "$nst" "$name: exit status as natively ($nst)"
	ok "$(cmp -s n.out r.out && cmp -s n.err r.err; echo $?)" "$name: stdout and stderr as natively"
	like "$("$VT" check r.lz4)" "OK: " "$name: the trace checks OK"
	"$VT" dump r.lz4 >r.txt
	calls_by_process s.txt >s.calls
	calls_by_process r.txt >r.calls
	is_file r.calls s.calls "$name: the calls of each process, in order, as strace -f shows ($(wc -w <s.calls))"
}

same "a library constructor that maps" "$B/tests/shim/ctor_maps"
# programs with several libraries: ld.so's allocation of the main
# thread's TLS differs by the recorder's (calls_by_process, tests/shim/shim.sh)
LOADER_TLS=skip same "a shell pipeline" sh -c 'ls / | sort | wc -l'
# Debian's python3 (a pyenv shim in front of it runs a different chain
# of programs each time)
if [ -x /usr/bin/python3 ]; then
	LOADER_TLS=skip same "python start-up" /usr/bin/python3 -c pass
else
	skip "no /usr/bin/python3"
fi
same "a static program" "$B/tests/shim/static_hello"
# libvmrec gives up after mapping its trampoline page (a mount namespace
# hides the store): it says so to the launcher, which records the
# process alone to its end
if unshare -m true 2>/dev/null; then
	LOADER_TLS=skip same "a recorder that gives up after its page" \
		unshare -m sh -c "mount -t tmpfs none '$T' && exec '$B/tests/shim/ctor_maps'"
	grep -q ' exit_group(3) *= ?' r.txt
	ok $? "its exit is in the trace"
else
	skip "no mount namespace here (unshare -m needs CAP_SYS_ADMIN)"
fi
if [ -x /usr/bin/busybox ] && file -L /usr/bin/busybox | grep -q 'statically linked'; then
	same "busybox (static), a pipeline" busybox sh -c 'echo a b | busybox wc -w; exit 7'
else
	skip "no static busybox (apt-get install busybox-static)"
fi
# the launcher records the loader's calls; libvmrec the program's own
"$V" -o c.lz4 -- "$B/tests/shim/ctor_maps" >/dev/null
"$TC" c.lz4 >c.txt
head -1 c.txt | grep -Eq ' brk 0 = 0x[0-9a-f]+ LAUNCHER$'
ok $? "the loader's first brk(NULL) is the launcher's"
is "$(grep -c 'LAUNCHER' c.txt)" "$(($(wc -l <c.txt) - 3))" "all but the program's last three calls are the launcher's"
# vmtrace stats says from where each process was recorded
"$VT" stats c.lz4 | grep -q 'ctor_maps  \[from execve: launcher, then preload\]$'
ok $? "stats: a dynamic program, from execve: launcher, then preload"
"$V" -o st.lz4 -- "$B/tests/shim/static_hello" >/dev/null
"$VT" stats st.lz4 | grep -q 'static_hello  \[from execve: launcher\]$'
ok $? "stats: a static program, from execve: launcher"
done_testing

#!/bin/sh
# What an exec costs the vmrec launcher in ptrace stops (docs/shim.md,
# "Two recorders"): two for each call it records (the seccomp stop and
# the syscall-exit stop), one for the exec, and a few for the recorder
# itself: ld.so mapping libvmrec.so (lz4 is linked in: no second
# library; two PT_LOADs, -z noseparate-code, its .bss in the file, so
# no anonymous mmap after its data; its reservation needs no
# syscall-exit stop, the second segment's MAP_FIXED mmap says where it
# went) and libvmrec mapping its trampoline page; none for libvmrec's
# own calls after that, none for each directory of PATH the root's
# execvp would try.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec
need_built "$V"
have_strace || skip_all "strace cannot trace here"
cd "$T" || exit 1

# stops PROG ARGS...: the launcher's ptrace stops for the recording, and
# in L.txt the number of events it recorded itself
stops() {
	strace -qq -e trace=wait4 -o w.txt "$V" -o s.lz4 -- "$@" >/dev/null 2>&1
	"$TC" s.lz4 | grep -c ' LAUNCHER' >L.txt
	grep -c 'WIFSTOPPED' w.txt
}

s=$(stops /bin/true)
L=$(cat L.txt)
fixed=$((s - 2 * L))
note "/bin/true: $s stops, $L calls recorded by the launcher"
[ "$fixed" -le 7 ]
ok $? "an exec costs the launcher at most 7 stops besides two per call it records ($fixed)"
is "$(readelf -d "$LIB" | grep -c 'NEEDED')" 1 "libvmrec.so needs only libc"
is "$(readelf -lW "$LIB" | grep -c '^ *LOAD ')" 2 "and ld.so maps it in two segments"
is "$(readelf -lW "$LIB" | awk '$1 == "LOAD" && $5 != $6' | wc -l)" 0 \
	"each all file (p_filesz = p_memsz): no anonymous mmap after its data"

# an ioctl or prctl of a command the table does not record passes the
# filter (isatty's TCGETS is inline in libc's tcgetattr); PR_SET_VMA stops
SC=$B/tests/shim/static_ctl
need_built "$SC"
s0=$(stops "$SC" 0)
is "$(stops "$SC" 20)" "$s0" "20 ioctl(TCGETS) and prctl(PR_GET_NAME) cost no stop"
"$TC" s.lz4 | grep -q ' prctl 0x53564d41 0 .* LAUNCHER'
ok $? "prctl(PR_SET_VMA) is recorded"

# libvmrec's mmap of its trampoline page is the launcher's sign that it
# is live, taken at the call's entry: where the page cannot be had (a
# constructor that ran first took the address) libvmrec says so and the
# launcher records the process alone, to its end
CM=$B/tests/shim/ctor_maps
need_built "$CM"
CTOR_TAKE_TRAMPOLINE=1 "$V" -o c.lz4 -- "$CM" >c.out 2>c.err
is "$?:$(cat c.out)" "3:ctor 42" "no trampoline page: the program runs as natively"
like "$("$B/bin/vmtrace" check c.lz4)" "OK: " "and its trace checks OK"
"$B/bin/vmtrace" stats c.lz4 | grep -q 'ctor_maps  \[from execve: launcher\]$'
ok $? "recorded from execve by the launcher alone"
is "$("$TC" c.lz4 | grep -vc ' LAUNCHER')" 0 "every event is the launcher's"
"$TC" c.lz4 | grep -q ' exit_group 0x3 = ? .*LAUNCHER'
ok $? "its exit too"

# a fork of a process where libvmrec is live stops only its child (its
# first stop: libvmrec's fork passes CLONE_PTRACE), not the parent with
# a fork event
FF=$B/tests/shim/progs/fork_first_calls
need_built "$FF"
stops "$FF" 5 >/dev/null
is "$(grep -c 'PTRACE_EVENT_FORK' w.txt)" 0 "5 forks of a live process: no fork event stop"
like "$("$B/bin/vmtrace" stats --json s.lz4)" '"processes": 6,' "and all 6 processes are recorded, each fork child's start by libvmrec"
"$B/bin/vmtrace" stats --json s.lz4 | grep -q '"fork": 5}'
ok $? "with 5 fork checkpoints"

s0=$(stops true)
s8=$(PATH=/nonexistent/a:/nonexistent/b:/nonexistent/c:/nonexistent/d:$PATH stops true)
is "$s8" "$s0" "PATH's directories cost no stop"
done_testing

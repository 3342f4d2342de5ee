#!/bin/sh
# A userfaultfd monitor's calls reach the kernel with nothing of the
# recorder's in between: the uffd range a UFFDIO_REGISTER or
# UFFDIO_UNREGISTER names is read after the call (input the kernel leaves
# as it was).  A monitor whose UNREGISTER comes late loses a kernel race
# it wins natively: a fault between the UNREGISTER's wake-up of pending
# faults and its clearing of the range leaves a fault for a range no
# longer registered (uffd-unit-tests' events tests: UFFDIO_COPY ENOENT;
# docs/shim.md, "Never harming the program").  strace shows each call
# right after the sched_yield the program makes before it, and the trace
# holds the range
# (recorded apart: under strace the store is not always finished).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
PROG=$P/uffd_monitor_calls
need_built "$PROG"
have_strace || skip_all "strace cannot trace here"
"$PROG" >"$T/native" 2>&1
[ $? -eq 77 ] && skip_all "no userfaultfd here"

LD_PRELOAD=$LIB VMREC_OUT=$T/st.lz4 strace -f -qq -e trace=sched_yield,ioctl,process_vm_readv \
	-o "$T/st" "$PROG" >"$T/out" 2>"$T/err"
ok $? "uffd_monitor_calls runs recorded under strace"
is "$(cat "$T/err")" "" "nothing on stderr"
range=$(cat "$T/out")
like "$range" "start=0x" "it registered $range"
# the call before each of the program's 4 uffd ioctls: its sched_yield
before=$(awk '/ioctl\([0-9]+, UFFDIO_(UN)?REGISTER,/ { n++; if (prev ~ /sched_yield/) y++; else print "after: " prev }
              { prev = $0 } END { print y "/" n }' "$T/st")
is "$before" "4/4" "each UFFDIO_REGISTER and UFFDIO_UNREGISTER right after the program's sched_yield"
record "$T/u.lz4" "$PROG" >"$T/out" 2>"$T/err"
ok $? "uffd_monitor_calls runs recorded"
range=$(cat "$T/out")
n=$("$B/bin/vmtrace" dump "$T/u.lz4" | grep -c "UFFDIO_UNREGISTER, {$range}")
is "$n" 2 "the trace holds both UNREGISTERs' range"
n=$("$B/bin/vmtrace" dump "$T/u.lz4" | grep -c "UFFDIO_REGISTER, {range={$range}, mode=UFFDIO_REGISTER_MODE_MISSING, ioctls=")
is "$n" 2 "and both REGISTERs' range, mode and ioctls"
done_testing

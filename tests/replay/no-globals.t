#!/bin/sh
# The files of replay/ (the driver, the back ends, the simulator, the QEMU
# back end) keep no state of their own between calls: what they learn or
# make belongs to the space object, to the engine (its ipc context, its
# per-event table) or to the caller, so one replay cannot leak into
# another and --threads shares nothing hidden.
# Any object in .data or .bss (or thread-local) of theirs is such state.
# EXCEPTION: the state below is this OS process's own, which is what the
# kernel back end replays in (a replayer is one recorded process), or a
# fact of the machine found once; each name is listed with its object and
# must be there (a list that outlives its state fails too):
#   backend_kernel.o  the_space, the held low range, its read buffers and
#                     the image's ranges sorted for counting
#   apply_mem.o       this process's pidfds (f, per call kind) and its
#                     userfaultfds, one per recorded descriptor (u, next)
#   standin.o         the stand-in files' guard of this process, and the
#                     hugetlb stand-in it made last (lazy_fd, lazy_of)
#   vmaquery.o        this process's /proc/self/maps descriptor and buffer
#   latency.o         the clock's calibration
#   image.o           touch_bits, the residency bitmap of a touch
#   fidelity.o        scratch, a snapshot before it is copied to the shared pool
#   sim/calib.o sim/profiles.o sim/intern.o  tables built once, locked
#   sim/apply.o       before/after, the outcome query's buffers
#   vm/*              the QEMU front end's names, found once; the guest's
#                     init (vm/guest/vminit.o), a program of its own
. "$(dirname "$0")/../lib.sh"
allowed='
replay/apply_mem.o f next u
replay/backend_kernel.o low_hi low_lo low_from the_space a buf one before after b ranges_buf ranges_cap
replay/fidelity.o scratch
replay/image.o touch_bits
replay/latency.o d lat_use_tsc lat_tick_mult
replay/standin.o guarded owner_pid lazy_fd lazy_of
replay/vmaquery.o maps_fd maps_buf use_ioctl
replay/sim/apply.o after before
replay/sim/calib.o def def_once
replay/sim/intern.o lock used nslots slots
replay/sim/profiles.o names host host_probed host_ok host_once names_once
replay/vm/vm_frame.o table
replay/vm/vm_kernels.o dir store
replay/vm/vm_main.o k path
replay/vm/guest/vminit.o line
'
cd "$S" || exit 1
srcs=$(git ls-files 'replay/*.c' 2>/dev/null || find replay -name '*.c')
ok "$([ -n "$srcs" ]; echo $?)" "replay/'s sources are found"
# state OBJECT: its module-level objects, a static's compiler suffix (.N)
# dropped, sorted.  (ASan's own __odr_asan.* markers are not the code's.)
state() {
	objdump -t "$1" | awk '$0 ~ /[ \t]\.(bss|data|tbss|tdata)[ \t]/ && $NF !~ /^\./ && $NF !~ /^__odr_asan/ { print $NF }' |
		sed 's/\.[0-9]*$//' | sort -u | tr '\n' ' '
}
for f in $srcs; do
	o=${f%.c}.o
	[ -f "$B/obj/$o" ] || fail_all "$B/obj/$o is not built (make all tests, or make check)"
	want=$(printf '%s\n' "$allowed" | awk -v o="$o" '$1 == o { for (i = 2; i <= NF; i++) print $i }' | sort -u | tr '\n' ' ')
	is "$(state "$B/obj/$o")" "$want" "$o: no module-level state${want:+ but the exception's}"
done
# the check sees a static in a function and a file-level one
printf 'static int n;\nint f(void) { static int k; return ++k + ++n; }\n' >"$T/probe.c"
${CC:-cc} -O2 -c -o "$T/probe.o" "$T/probe.c" || fail_all "cannot compile the probe"
is "$(state "$T/probe.o")" "k n " "the check finds module-level state"
done_testing

#!/bin/sh
# The kernel back end and the simulator (host profile) give the same
# outcome and VMA count for every event of every bundled trace
# (traces/samples), of the `vmtrace synth` workloads, and of traces the
# shim records from its test programs.  A disagreement prints the first
# differing events.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
VT=$B/bin/vmtrace
REC=$B/bin/vmrec
need_built "$VT" "$REC" "$B/lib/libvmrec.so"

# agree NAME TRACE
agree() {
	"$V" -q --per-event --json "$T/k.json" "$2" >/dev/null 2>"$T/k.err" &&
	"$V" -q --target sim --kernel host --per-event --json "$T/s.json" "$2" >/dev/null 2>"$T/s.err"
	if [ $? -ne 0 ]; then
		ok 1 "$1: both back ends replay it"
		sed 's/^/# /' "$T/k.err" "$T/s.err" | head -5
		return
	fi
	"$PYTHON" "$S/tests/replay/agree_cmp.py" "$T/k.json" "$T/s.json" >"$T/cmp"
	ok $? "$1: $(tail -1 "$T/cmp")"
	sed '$d; s/^/# /' "$T/cmp"
}

for f in "$S"/traces/samples/*.lz4; do
	agree "samples/$(basename "$f")" "$f"
done

for n in brk_test page_test brk1 brk2 mmap1 mmap2 pthread fork; do
	if "$VT" synth $n --iterations 3 -o "$T/$n.vmt" >/dev/null 2>&1; then
		agree "synth $n" "$T/$n.vmt"
	else
		ok 1 "vmtrace synth $n"
	fi
done

# the shim's test programs that run without arguments
P=$B/tests/shim/progs
for n in checkpoint_req clone_args dlopen_loop errno_kept fork_threads own_sigsys \
         raw_syscalls remap spawn_exec splits stack_maps threads_malloc; do
	if [ ! -x "$P/$n" ]; then
		ok 1 "shim $n: $P/$n is built"
		continue
	fi
	if carries_asan "$P/$n"; then
		# its image holds ASan's shadow mappings, which a replayer built
		# with ASan has at the same addresses already
		skip "shim $n: built with AddressSanitizer, its image cannot be rebuilt"
		skip "shim $n: (the same)"
		continue
	fi
	(cd "$T" && "$REC" -o "$T/$n.vmt" -- "$P/$n" >/dev/null 2>&1)
	ok $? "shim $n: recorded"
	agree "shim $n" "$T/$n.vmt"
done
done_testing

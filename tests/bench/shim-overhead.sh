#!/bin/sh
# shim-overhead.sh - the recorder's cost, measured side by side in one run:
# native, recorded under the vmrec launcher (no stacks), recorded without residency records
# (VMREC_RESIDENCY=0), recorded with --stacks=16, and strace -f,
# run alternately ROUNDS times; prints the median of each round's ratio
# to native.
#   1. AIM9 page_test's sbrk loop (ns per brk, loop only)
#   2. pthread create/join churn (ns per thread), beside preloaded alone;
#      also, natively, threads
#      that make only the two system calls the recorder must make in each
#      thread (arming Syscall User Dispatch, one getrusage): the part of
#      the recorded cost that is the kernel's; and 4 threads whose mmap/
#      munmap calls overlap (each call's interval, docs/trace-format.md)
#   3. python3 -c 'import json' start-up (CPU time of the whole process)
#   4. small syscall-bound loops (shim-loops.c: brk1, mmap1 and malloc1
#      like will-it-scale's, page_test's sbrk loop without page touches),
#      each beside its floors: natively with dispatch armed ("dispatch"),
#      and with the residency question too ("floor"), preloaded alone's;
#      natively under the launcher's seccomp filter with the residency
#      question ("filter"), the launcher's
#   5. malloc1's trace: bytes per event
# All three count CPU time, not wall time: the machine is shared.
# Targets (each printed on its line): recorded/native <= 1.15 on brk1,
# mmap1 and malloc1, <= 1.05 on page_test, <= 1.10 on the sbrk loop (1.5
# with --stacks=16) and the threaded loop; thread churn recorded/floor
# <= 1.05; malloc1's trace
# <= 8 bytes per event.
set -e
. "$(dirname "$0")/pin.sh"
B=${VMREC_BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}
ROUNDS=${ROUNDS:-11}
T=$(mktemp -d "${TMPDIR:-/tmp}/shim-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
LIB=$B/lib/libvmrec.so
PY=$(command -v python3.11 || command -v python3)
[ -x /usr/bin/python3 ] && PY=/usr/bin/python3

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Recorded under the vmrec launcher, which drains the trace store (the
# recorded threads only log their records; docs/store.md); pre: preloaded alone, each thread encoding its own chunks.
rec() { "$B/bin/vmrec" -o "$T/t.lz4" -- "$@"; }
nores() { VMREC_RESIDENCY=0 "$B/bin/vmrec" -o "$T/t.lz4" -- "$@"; }
stk() { "$B/bin/vmrec" --stacks=16 -o "$T/t.lz4" -- "$@"; }
pre() { LD_PRELOAD=$LIB VMREC_OUT=$T/t.lz4 "$@"; }
# CPU ms of a command and every process under it (the launcher included)
tree_cpu() {
	"$PY" -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.1f" % ((r.ru_utime + r.ru_stime) * 1e3))' "$@"
}
st() { strace -f -qq -o /dev/null "$@"; }

# The ratio of each round's pair (the machine's load drifts between rounds,
# less within one), then the median of those.
pair_median() { paste "$1" "$2" | awk '{ printf "%.3f\n", $1 / $2 }' | median; }

bench() {   # NAME TARGET: runs "$@" (which prints one number) in each mode
	name=$1 target=$2; shift 2
	: >"$T/n"; : >"$T/r"; : >"$T/s"; : >"$T/x"; : >"$T/m"; : >"$T/f"; : >"$T/p"
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		"$@" >>"$T/n"; rec "$@" >>"$T/r"; nores "$@" >>"$T/m"; stk "$@" >>"$T/s"
		[ "$STRACE" = 0 ] || st "$@" >>"$T/x"
		[ -z "$FLOOR" ] || "$@" floor >>"$T/f"
		[ -z "$PRE" ] || pre "$@" >>"$T/p"
		i=$((i + 1))
	done
	n=$(median <"$T/n")
	line="$name: native $n, recorded $(pair_median "$T/r" "$T/n")x, without residency $(pair_median "$T/m" "$T/n")x, --stacks=16 $(pair_median "$T/s" "$T/n")x"
	[ -z "$PRE" ] || line="$line, preloaded alone $(pair_median "$T/p" "$T/n")x, recorded/preloaded $(pair_median "$T/r" "$T/p")x"
	[ "$STRACE" = 0 ] || line="$line, strace -f $(pair_median "$T/x" "$T/n")x"
	[ -z "$FLOOR" ] || line="$line, kernel floor (no recorder) $(pair_median "$T/f" "$T/n")x, recorded/floor $(pair_median "$T/r" "$T/f")x"
	echo "$line (medians of per-round ratios, $ROUNDS alternating rounds; target: $target)"
}

# NAME TARGET LOOP N [stacks]: a shim-loops loop natively, recorded,
# without residency, and at its floors (with --stacks=16 too if asked).
# Each way of recording has its own floor, what the kernel alone costs
# of it: preloaded alone, Syscall User Dispatch's slow entry and the
# residency question; under the launcher, its seccomp filter run by
# every call the table records, and the residency question.
loop() {
	name=$1 target=$2 l=$3 n=$4 want_stk=$5
	: >"$T/n"; : >"$T/r"; : >"$T/m"; : >"$T/d"; : >"$T/f"; : >"$T/s"; : >"$T/p"; : >"$T/l"
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		"$B/bench/shim-loops" "$l" "$n" >>"$T/n"
		rec "$B/bench/shim-loops" "$l" "$n" >>"$T/r"
		pre "$B/bench/shim-loops" "$l" "$n" >>"$T/p"
		"$B/bench/shim-loops" "$l" "$n" dispatch >>"$T/d"
		nores "$B/bench/shim-loops" "$l" "$n" >>"$T/m"
		"$B/bench/shim-loops" "$l" "$n" floor >>"$T/f"
		"$B/bench/shim-loops" "$l" "$n" filter >>"$T/l"
		[ -z "$want_stk" ] || stk "$B/bench/shim-loops" "$l" "$n" >>"$T/s"
		i=$((i + 1))
	done
	line="$name: native $(median <"$T/n"), recorded $(pair_median "$T/r" "$T/n")x (preloaded alone $(pair_median "$T/p" "$T/n")x), without residency $(pair_median "$T/m" "$T/n")x"
	[ -z "$want_stk" ] || line="$line, --stacks=16 $(pair_median "$T/s" "$T/n")x"
	echo "$line; floors: preloaded (dispatch $(pair_median "$T/d" "$T/n")x, +residency $(pair_median "$T/f" "$T/n")x), launcher (filter+residency $(pair_median "$T/l" "$T/n")x); recorded/launcher floor $(pair_median "$T/r" "$T/l")x, preloaded/its floor $(pair_median "$T/p" "$T/f")x (medians of per-round ratios, $ROUNDS alternating rounds; target: $target)"
}

echo "shim-overhead: recorder cost relative to native (lower is better), every run on CPU $VMREC_BENCH_CPU_PINNED"
bench "aim9 page_test sbrk loop (ns/brk)" "recorded <= 1.05" "$B/bench/shim-page_test" 3000
# under the launcher a new thread costs one ptrace stop, its auto-attach
# (docs/shim.md, "Two recorders"): recorded/preloaded says what it costs
FLOOR=1 PRE=1
bench "pthread create/join churn (ns/thread)" "recorded/floor <= 1.05, recorded/preloaded <= 1.02" "$B/bench/shim-thread_churn" 3000
FLOOR= PRE=
bench "mmap4t: 4 threads mmap/touch/munmap 1 MiB (ns/iteration)" "recorded <= 1.10" "$B/bench/shim-loops" mmap4t 8000
STRACE=0 bench "python3 -c 'import json' x10 (CPU ms)" "none" "$B/bench/shim-runcpu" 10 "$PY" -c 'import json'
loop "brk1: brk up a page and back (ns/iteration)" "recorded <= 1.15" brk1 20000
loop "mmap1: mmap+munmap 128 MiB (ns/iteration)" "recorded <= 1.15" mmap1 5000
loop "malloc1: malloc+free 128 MiB (ns/iteration)" "recorded <= 1.15" malloc1 3000
loop "sbrk loop, no page touches (ns/iteration of 17 calls)" "recorded <= 1.10, --stacks=16 <= 1.5" sbrk 2000 stacks

# Start-up: what a process costs from its execve (the launcher records the
# loader's calls with ptrace until libvmrec is live, docs/shim.md "Two
# recorders"): the whole command natively, under vmrec and under strace -f
# --seccomp-bpf (the same stop-only-for-these-calls technique), and under
# a bare launcher that only forks, execs and waits (static, as vmrec is:
# what any launcher costs, the floor), alternating, medians of per-round
# ratios, of CPU time (user + system of
# the whole process tree, the launcher included: the steadier figure on a
# shared machine) and of wall time (shim-runcpu -w).
MEM='trace=%memory,prctl'
cpu_wall() { "$B/bench/shim-runcpu" -w 1 "$@"; }
startup() {   # NAME TARGET CMD...
	name=$1 target=$2; shift 2
	: >"$T/n"; : >"$T/r"; : >"$T/x"; : >"$T/b"
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		cpu_wall "$@" >>"$T/n"
		cpu_wall "$B/bin/vmrec" -o "$T/t.lz4" -- "$@" >>"$T/r"
		cpu_wall strace -f -qq --seccomp-bpf -e "$MEM" -o /dev/null "$@" >>"$T/x"
		cpu_wall "$B/bench/shim-bare_launcher" "$@" >>"$T/b"
		i=$((i + 1))
	done
	for f in n r x b; do
		cut -d' ' -f1 "$T/$f" >"$T/$f.cpu"; cut -d' ' -f2 "$T/$f" >"$T/$f.wall"
	done
	echo "$name: native $(median <"$T/n.cpu") ms CPU, $(median <"$T/n.wall") us wall; vmrec $(pair_median "$T/r.cpu" "$T/n.cpu")x CPU, $(pair_median "$T/r.wall" "$T/n.wall")x wall; strace -f --seccomp-bpf $(pair_median "$T/x.cpu" "$T/n.cpu")x CPU, $(pair_median "$T/x.wall" "$T/n.wall")x wall; bare launcher (floor) $(pair_median "$T/b.cpu" "$T/n.cpu")x CPU (medians of per-round ratios, $ROUNDS alternating rounds; target: $target)"
}
printf 'int f(int x) { return x * 2; }\n' >"$T/small.c"
startup "200 execs of /bin/true from a shell" "vmrec <= 2.0" sh -c 'i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i + 1)); done'
startup "python3 -c pass" "vmrec <= 1.10" "$PY" -c pass
if command -v gcc >/dev/null 2>&1; then
	startup "gcc -c of a small file" "vmrec <= 1.10" gcc -c -o "$T/small.o" "$T/small.c"
fi
# a build: make -j2 of 26 small C files (cc -c each, then one link)
if command -v gcc >/dev/null 2>&1 && command -v make >/dev/null 2>&1; then
	mkdir -p "$T/mk"
	for i in $(seq 1 25); do
		printf 'int f%d(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * %d; return s; }\n' \
			"$i" "$i" >"$T/mk/f$i.c"
	done
	printf 'int f1(int);\nint main(void) { return f1(3) != 3; }\n' >"$T/mk/main.c"
	printf 'OBJS := $(patsubst %%.c,%%.o,$(wildcard *.c))\nprog: $(OBJS)\n\tgcc -o $@ $^\n%%.o: %%.c\n\tgcc -O2 -c -o $@ $<\n' >"$T/mk/Makefile"
	startup "make -j2 of 26 C files" "vmrec <= 1.10" sh -c 'rm -f "$1"/*.o "$1"/prog; make -s -j2 -C "$1"' sh "$T/mk"
fi
startup "/bin/true, one process" "none (the fixed cost per recording)" /bin/true

# What the launcher spends draining is CPU too, on another core where
# there is one: the whole tree's CPU for one sbrk loop, both ways.
: >"$T/cl"; : >"$T/cp"
for i in 1 2 3 4 5; do
	tree_cpu "$B/bin/vmrec" -o "$T/t.lz4" -- "$B/bench/shim-loops" sbrk 20000 >>"$T/cl"
	tree_cpu env LD_PRELOAD="$LIB" VMREC_OUT="$T/t.lz4" "$B/bench/shim-loops" sbrk 20000 >>"$T/cp"
done
echo "sbrk loop, 374,017 calls, CPU of the whole process tree: under the launcher $(median <"$T/cl") ms, preloaded alone $(median <"$T/cp") ms (medians of 5 alternating rounds)"

# libvmrec's own fixed cost per process, no launcher: 200 execs of
# /bin/true from a shell, preloaded alone against native, alternating;
# the whole tree's CPU time and minor faults (getrusage of the children),
# and the faults under the launcher too (its own included).
preloaded_execs() {
	loop='i=0; while [ $i -lt 200 ]; do /bin/true; i=$((i + 1)); done'
	: >"$T/pen"; : >"$T/pep"; : >"$T/per"
	i=0
	while [ $i -lt "$ROUNDS" ]; do
		for mode in native pre rec; do
			"$PY" -c 'import os, resource, subprocess, sys
env = dict(os.environ)
cmd = ["sh", "-c", sys.argv[5]]
if sys.argv[1] == "pre":
    env.update(LD_PRELOAD=sys.argv[2], VMREC_OUT=sys.argv[3])
if sys.argv[1] == "rec":
    cmd = [sys.argv[4], "-o", sys.argv[3], "--"] + cmd
subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print("%.1f %d" % ((r.ru_utime + r.ru_stime) * 1e3, r.ru_minflt))' "$mode" "$LIB" "$T/pe.lz4" "$B/bin/vmrec" "$loop" >>"$T/pe$(echo $mode | cut -c1)"
			rm -f "$T/pe.lz4"
		done
		i=$((i + 1))
	done
	cut -d' ' -f1 "$T/pen" >"$T/pen.cpu"; cut -d' ' -f1 "$T/pep" >"$T/pep.cpu"
	fn=$(cut -d' ' -f2 "$T/pen" | median); fp=$(cut -d' ' -f2 "$T/pep" | median)
	fr=$(cut -d' ' -f2 "$T/per" | median)
	echo "200 /bin/true preloaded alone: native $(median <"$T/pen.cpu") ms CPU, preloaded $(pair_median "$T/pep.cpu" "$T/pen.cpu")x; minor faults per exec: native $((fn / 200)), preloaded $((fp / 200)), under vmrec $((fr / 200)) (medians, $ROUNDS alternating rounds; target: none, the launcher's row above is <= 2.0)"
}
preloaded_execs

# malloc1's trace size: every iteration is an mmap, a munmap and the
# residency record before the munmap
rec "$B/bench/shim-loops" malloc1 5000 >/dev/null
"$B/bin/vmtrace" stats --json "$T/t.lz4" | awk -F'[:,]' '
	/"events"/ { ev = $2 + 0 } /"file_bytes"/ { by = $2 + 0 }
	/"bytes_per_event"/ { printf "malloc1 trace: %d bytes, %d events, %.1f bytes per event (target <= 8)\n", by, ev, $2 }'

# pin.sh - sourced by the ratio benchmarks first: runs the sourcing script
# again on one CPU, so every side of every pair runs on the same core.
# The two vCPUs of these machines differ: brk, mmap and malloc loops run
# tens of percent slower on one than on the other, and which one is the
# slow one changes within minutes, while a pure compute loop runs the
# same on both; an unpinned process stays where it started, so a native
# run on one and a recorded run on the other makes ratios of 0.7 or 1.5
# out of nothing.  BENCH_CPU picks the CPU
# (default: the first this script may use); where taskset cannot pin, the
# script runs unpinned and says so.
if [ -z "${VMREC_BENCH_CPU_PINNED:-}" ]; then
	_cpu=${BENCH_CPU:-$(sed -n 's/^Cpus_allowed_list:[[:space:]]*\([0-9]*\).*/\1/p' /proc/self/status)}
	if command -v taskset >/dev/null 2>&1 && taskset -c "$_cpu" true 2>/dev/null; then
		VMREC_BENCH_CPU_PINNED=$_cpu exec taskset -c "$_cpu" sh "$0" "$@"
	fi
	echo "$(basename "$0"): not pinned to one CPU (taskset cannot use CPU ${_cpu:-?}): pairs may mix cores"
	VMREC_BENCH_CPU_PINNED=none
fi
export VMREC_BENCH_CPU_PINNED

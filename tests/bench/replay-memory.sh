#!/bin/sh
# replay-memory.sh - what vmreplay and vmreport hold against the length of
# the trace: the peak resident memory (ru_maxrss of the process tree) of
# vmreplay on the kernel and in the simulator, and of vmreport --explain
# comparing two --per-event results of it (simulator, kernels 6.1 and
# 6.8), for synthesised brk1 traces of 10^5, 10^6 and 10^7 events
# (vmtrace synth brk1 --tasks 1, cached in $VMREC_BUILD/bench/traces).
# The serial replay's and vmreport's should be flat (docs/replay-cost.md,
# "Memory"); the last line is the largest trace's peak over the
# smallest's.  Memory is not the machine's load: one run of each.  SIZES
# overrides the list (e.g. SIZES="100000 1000000"); vmreport runs up to
# REPORT_MAX events (default 10^7) when $TMPDIR has room for the two
# results files and vmreport's copy of their rows (~1.4 kB an event: the
# simulator's per-event JSON is ~530 bytes a row, 5.3 GB a file at 10^7,
# and vmreport keeps ~180 bytes a row); it takes ~10 minutes at 10^7.
set -e
S=${VMREC_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${VMREC_BUILD:-$S/build}
V=$B/bin/vmreplay R=$B/bin/vmreport TR=$B/bin/vmtrace
SIZES=${SIZES:-100000 1000000 10000000}
REPORT_MAX=${REPORT_MAX:-10000000}
for x in "$V" "$R" "$TR"; do
	[ -x "$x" ] || { echo "replay-memory: $x is missing: run make" >&2; exit 1; }
done
C=$B/bench/traces
mkdir -p "$C"
T=$(mktemp -d "${TMPDIR:-/tmp}/vmrec-bench-mem.XXXXXX")
trap 'rm -rf "$T"' EXIT

# free KB in the file system of $T
room() { df -Pk "$T" | awk 'NR == 2 { print $4 }'; }

# peak KB CMD...: runs CMD (its output thrown away), prints its tree's
# peak resident KB; a failure fails the benchmark
peak() {
	python3 - "$@" <<'EOF'
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
if r.returncode != 0:
    sys.stderr.write("replay-memory: %s: exit %d: %s" % (" ".join(sys.argv[1:]), r.returncode, r.stderr.decode()[-400:]))
    sys.exit(1)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
EOF
}
mb() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }

began=$(date +%s)
echo "replay-memory: peak RSS (MB) against events, brk1 synth (vmtrace synth brk1 --tasks 1)"
# a child's peak starts at the measuring python's own (fork, then exec)
echo "  (the floor, the peak of /bin/true measured so: $(mb "$(peak true)") MB)"
printf "  %10s %12s %12s %12s %14s\n" events "sim" "kernel" "vmreport" "per-event JSON"
first_sim='' first_k='' first_r='' last_r=''
for n in $SIZES; do
	t=$C/brk1-$n.vmt
	[ -s "$t" ] || "$TR" synth brk1 --tasks 1 --iterations $((n / 2)) -o "$t"
	sim=$(peak "$V" -q --target sim --kernel 6.8 "$t")
	k=$(peak "$V" -q "$t")
	# vmreport --explain on two per-event results of the trace (two
	# kernel profiles): it reads their rows back from its own files
	r=- js=-
	if [ "$n" -le "$REPORT_MAX" ] && [ "$(room)" -lt $((n * 14 / 10)) ]; then
		echo "  ($n events: vmreport not run, ${TMPDIR:-/tmp} has $(room) kB, it needs ~$((n * 14 / 10)) kB)"
	elif [ "$n" -le "$REPORT_MAX" ]; then
		"$V" -q --target sim --kernel 6.1 --per-event --json "$T/a.json" "$t"
		"$V" -q --target sim --kernel 6.8 --per-event --json "$T/b.json" "$t"
		js=$(($(stat -c %s "$T/a.json") / 1048576))
		r=$(TMPDIR=$T peak "$R" --explain --no-stacks "$T/a.json" "$T/b.json")
		rm -f "$T/a.json" "$T/b.json"
		[ -n "$first_r" ] || first_r=$r
		last_r=$r
	fi
	printf "  %10d %12s %12s %12s %11s MB\n" "$n" "$(mb "$sim")" "$(mb "$k")" \
	       "$([ "$r" = - ] && echo "-" || mb "$r")" "$js"
	[ -n "$first_sim" ] || { first_sim=$sim first_k=$k; }
	last_sim=$sim last_k=$k
done
awk -v a="$first_sim" -v b="$last_sim" -v c="$first_k" -v d="$last_k" -v e="$first_r" -v f="$last_r" -v m="$REPORT_MAX" 'BEGIN {
	printf "  largest / smallest trace: sim %.2fx, kernel %.2fx", b / a, d / c
	if (e > 0)
		printf ", vmreport %.2fx (to %d events)", f / e, m
	print " (flat: 1)"
}'
echo "  ($(($(date +%s) - began)) s)"

# vmreplay --threads on the kernel: brk1 in two threads of one process
# (vmtrace synth brk1 --mode thread --tasks 2), each brk waiting for the
# other thread's last, so the dependency lists hold about an entry a step
# (replay/deps.h); flat too: the lists and the trace's arrays spill and
# the lanes keep a window of them (docs/replay-cost.md, "Memory").
began=$(date +%s)
echo "replay-memory: vmreplay --threads peak RSS (MB) against events, brk1 in 2 threads"
printf "  %10s %12s\n" events "--threads"
first_th='' last_th=''
for n in $SIZES; do
	t=$C/brk1-thr2-$n.vmt
	[ -s "$t" ] || "$TR" synth brk1 --mode thread --tasks 2 --iterations $((n / 4)) -o "$t"
	th=$(peak "$V" -q --threads "$t")
	printf "  %10d %12s\n" "$n" "$(mb "$th")"
	[ -n "$first_th" ] || first_th=$th
	last_th=$th
done
awk -v a="$first_th" -v b="$last_th" 'BEGIN { printf "  largest / smallest trace: --threads %.2fx (flat: 1)\n", b / a }'
echo "  ($(($(date +%s) - began)) s)"

#!/bin/sh
# report-scaling.sh - vmreport's cost against the number of metrics: two
# results files of 10,000 and of 100,000 metrics (5 runs each, every row
# differing), compared in alternating rounds (small, large, small, ...).
# Prints the medians, the time ratio for ten times the metrics (linear:
# about 10; the quadratic lookup this replaced made it about 100) and the
# throughput.  Not an assertion: the machine is shared.
set -e
S=${VMREC_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${VMREC_BUILD:-$S/build}
R=$B/bin/vmreport
ROUNDS=${ROUNDS:-5}
SMALL=${SMALL:-10000} LARGE=${LARGE:-100000}
[ -x "$R" ] || { echo "report-scaling: $R is missing: run make" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/vmrec-bench-report.XXXXXX")
trap 'rm -rf "$T"' EXIT

# results FILE METRICS SEED: a kernel results file of METRICS latency rows
results() {
	awk -v n="$2" -v seed="$3" 'BEGIN {
		srand(seed)
		printf "{\"vmrec_results\": 1, \"trace\": \"scale.vmt\", \"target\": \"kernel\", "
		printf "\"kernel\": \"6.1.0\", \"runs\": 5, \"metrics\": {"
		for (i = 0; i < n; i++) {
			printf "%s\"vmreplay.m%06d.latency_ns.p50\": [", i ? ", " : "", i
			for (k = 0; k < 5; k++)
				printf "%s%.1f", k ? ", " : "", 1000 + 100 * rand() + (seed == 2 ? 20 : 0)
			printf "]"
		}
		print "}}"
	}' >"$1"
}
for n in "$SMALL" "$LARGE"; do
	results "$T/a$n.json" "$n" 1
	results "$T/b$n.json" "$n" 2
done

ns() { date +%s%N; }
: >"$T/small"; : >"$T/large"
for r in $(seq "$ROUNDS"); do
	for n in "$SMALL" "$LARGE"; do
		t0=$(ns)
		"$R" --all "$T/a$n.json" "$T/b$n.json" >/dev/null
		t1=$(ns)
		[ "$n" = "$SMALL" ] && echo $((t1 - t0)) >>"$T/small" || echo $((t1 - t0)) >>"$T/large"
	done
done
median() { sort -n "$1" | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
s=$(median "$T/small") l=$(median "$T/large")
awk -v s="$s" -v l="$l" -v ns="$SMALL" -v nl="$LARGE" -v r="$ROUNDS" 'BEGIN {
	printf "report-scaling: vmreport --all on two files of N metrics (5 runs each), medians of %d alternating rounds\n", r
	printf "  %6d metrics %8.0f ms   %6d metrics %8.0f ms   %.0fx the metrics: %.1fx the time (linear: %.0fx)\n",
		ns, s / 1e6, nl, l / 1e6, nl / ns, l / s, nl / ns
	printf "  throughput at %d metrics: %.0f metrics/s\n", nl, nl / (l / 1e9)
}'

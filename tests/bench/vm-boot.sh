#!/bin/sh
# Cost of a real-kernel replay under QEMU (TCG, no KVM): the same small trace
# (vm-seqgen 1 200) replayed on the host and inside the 6.1 and 6.12 guests,
# side by side in alternating rounds; prints median wall seconds and the
# ratio guest / host.  Reference: about 3.5 s per boot on 2 cores; the
# serial line carries about 250 KB/s of results.
B=${VMREC_BUILD:-build}
S=${VMREC_SRC:-.}
ROUNDS=${ROUNDS:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/vmrec-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
export VMREC_KERNELS=${VMREC_KERNELS:-$B/kernels}
if ! command -v qemu-system-x86_64 >/dev/null ||
   ! sh "$S/replay/vm/fetch-kernels.sh" "$VMREC_KERNELS" 6.1 6.12 >/dev/null 2>&1; then
	echo "vm-boot: skipped (needs qemu-system-x86 and \`make kernels\`)"
	exit 0
fi
"$B/tests/vm/vm-seqgen" 1 200 "$T/seq.trace" >/dev/null
secs() {
	s=$(date +%s.%N)
	"$B/bin/vmreplay" "$@" -q --per-event --json "$T/r.json" "$T/seq.trace" >/dev/null 2>&1
	e=$(date +%s.%N)
	echo "$s $e" | awk '{printf "%.3f\n", $2 - $1}'
}
: >"$T/host"; : >"$T/6.1"; : >"$T/6.12"
for r in $(seq "$ROUNDS"); do
	secs >>"$T/host"
	secs --vm 6.1 >>"$T/6.1"
	secs --vm 6.12 >>"$T/6.12"
done
median() { sort -g "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
h=$(median "$T/host"); a=$(median "$T/6.1"); b=$(median "$T/6.12")
awk -v h="$h" -v a="$a" -v b="$b" -v r="$ROUNDS" 'BEGIN {
	printf "vm-boot: 200-event trace, median of %d alternating rounds (wall seconds)\n", r
	printf "  host replay          %7.3f s\n", h
	printf "  --vm 6.1  (boot+run) %7.3f s   %6.0f x host\n", a, a / h
	printf "  --vm 6.12 (boot+run) %7.3f s   %6.0f x host\n", b, b / h
}'

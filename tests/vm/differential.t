#!/bin/sh
# The simulator against real kernels: seeded operation sequences (vm-seqgen)
# replayed with --per-event inside real 6.1 and 6.12 guests (one boot per
# kernel for all sequences) and in `vmreplay --target sim --kernel 6.1/6.12`
# must agree event by event (outcome and change of the VMA count).  When one
# does not, its reduced sequence is replayed in one more boot, to say whether
# it still shows the mismatch.
#
# Fast subset by default; the longer run is
#   VMREC_DIFF_SEQS=300 VMREC_DIFF_OPS=60 tests/vm/differential.t
. "$(dirname "$0")/../lib.sh"
. "$S/tests/vm/vm-setup.sh"

seqs=${VMREC_DIFF_SEQS:-8}
nops=${VMREC_DIFF_OPS:-30}
first=${VMREC_DIFF_SEED:-1}
seeds=$(seq "$first" $((first + seqs - 1)))
replay=$B/bin/vmreplay
for s in $seeds; do
	"$B/tests/vm/vm-seqgen" "$s" "$nops" "$T/seq$s.trace" >"$T/seq$s.ops" ||
		fail_all "vm-seqgen cannot write traces"
done

# sim KERNEL TRACE OUT.json: the simulator's per-event results
sim() {
	timeout 10 "$replay" --target sim --kernel "$1" --per-event --json "$3" "$2" \
		>/dev/null 2>"$T/sim.err"
	case $? in
	0) ;;
	124) echo "# $2: the simulator did not finish within 10 s" ;;
	*) sed 's/^/# /' "$T/sim.err" ;;
	esac
}
# real KERNEL PREFIX TRACE...: one boot, results PREFIX-<i>.json
real() {
	k=$1 prefix=$2
	shift 2
	"$replay" --vm "$k" --per-event --json "$prefix.json" -- "$@" >"$T/boot.out" 2>&1
	r=$?
	[ $# -gt 1 ] || mv "$prefix.json" "$prefix-0.json" 2>/dev/null
	[ $r -eq 0 ] || sed 's/^/# /' "$T/boot.out" | tail -n 15
	return $r
}

for k in 6.1 6.12; do
	traces=
	for s in $seeds; do traces="$traces $T/seq$s.trace"; done
	# shellcheck disable=SC2086
	real "$k" "$T/real-$k" $traces
	ok $? "$k guest replayed $seqs sequences of $nops operations"
	i=0 failed=
	for s in $seeds; do
		sim "$k" "$T/seq$s.trace" "$T/sim-$k-$s.json"
		python3 "$S/tests/vm/vmdiff.py" --reduced "$T/red$s.ops" "$T/seq$s.ops" \
			"$T/real-$k-$i.json" "$T/sim-$k-$s.json" >"$T/diff"
		ok $? "seed $s: simulator $k agrees with real $k event by event"
		if [ -s "$T/diff" ]; then
			cat "$T/diff"
			"$B/tests/vm/vm-seqgen" list "$T/red$s.ops" "$T/red$s.trace" >/dev/null &&
				failed="$failed $s"
		fi
		i=$((i + 1))
	done
	[ -n "$failed" ] || continue
	traces=
	for s in $failed; do traces="$traces $T/red$s.trace"; done
	# shellcheck disable=SC2086
	real "$k" "$T/rred-$k" $traces || continue
	i=0
	for s in $failed; do
		sim "$k" "$T/red$s.trace" "$T/sred-$k-$s.json"
		if python3 "$S/tests/vm/vmdiff.py" "$T/red$s.ops" "$T/rred-$k-$i.json" \
			"$T/sred-$k-$s.json" >/dev/null; then
			diag "seed $s on $k: the reduced sequence does NOT show the mismatch; the full one is needed"
		else
			diag "seed $s on $k: the reduced sequence ($(wc -l <"$T/red$s.ops") ops) reproduces it:"
			sed 's/^/#   /' "$T/red$s.ops"
		fi
		i=$((i + 1))
	done
done
done_testing

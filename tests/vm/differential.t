#!/bin/sh
# The simulator against real kernels: seeded operation sequences (vm-seqgen)
# replayed with --per-event inside real 6.1 and 6.12 guests (one boot per
# kernel for all sequences) and in `vmreplay --target sim --kernel 6.1/6.12`
# must agree event by event (outcome and change of the VMA count).
#
# Fast subset by default; the longer run is
#   VMREC_DIFF_SEQS=300 VMREC_DIFF_OPS=60 tests/vm/differential.t
. "$(dirname "$0")/../lib.sh"
. "$S/tests/vm/vm-setup.sh"

seqs=${VMREC_DIFF_SEQS:-8}
nops=${VMREC_DIFF_OPS:-30}
first=${VMREC_DIFF_SEED:-1}
replay=$B/bin/vmreplay
for s in $(seq "$first" $((first + seqs - 1))); do
	"$B/tests/vm/vm-seqgen" "$s" "$nops" "$T/seq$s.trace" >"$T/seq$s.ops" ||
		skip_all "vm-seqgen cannot write traces"
	set -- "$@" "$T/seq$s.trace"
done

for k in 6.1 6.12; do
	"$replay" --vm "$k" --per-event --json "$T/real-$k.json" -- "$@" >"$T/boot-$k.out" 2>&1
	ok $? "$k guest replayed $seqs sequences of $nops operations"
	[ $? -eq 0 ] || sed 's/^/# /' "$T/boot-$k.out" | tail -n 15
	i=0
	for s in $(seq "$first" $((first + seqs - 1))); do
		timeout 10 "$replay" --target sim --kernel "$k" --per-event \
			--json "$T/sim-$k-$s.json" "$T/seq$s.trace" >/dev/null 2>"$T/sim.err"
		case $? in
		0) ;;
		124) echo "# seed $s: the simulator did not finish within 10 s" ;;
		*) sed 's/^/# /' "$T/sim.err" ;;
		esac
		real=$T/real-$k-$i.json
		[ "$seqs" -eq 1 ] && real=$T/real-$k.json
		python3 "$S/tests/vm/vmdiff.py" "$T/seq$s.ops" "$real" "$T/sim-$k-$s.json" >"$T/diff"
		ok $? "seed $s: simulator $k agrees with real $k event by event"
		cat "$T/diff"
		i=$((i + 1))
	done
done
done_testing

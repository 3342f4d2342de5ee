#!/bin/sh
# Synthetic benchmark traces from `vmtrace synth` replay with perfect
# fidelity (brk loops: the replayed break is translated by the start_brk
# difference).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
VT=$B/bin/vmtrace
need_built "$VT"
for n in brk_test page_test brk1; do
	if ! "$VT" synth $n --iterations 50 -o "$T/$n.vmt" >/dev/null 2>&1; then
		"$VT" synth $n -o "$T/$n.vmt" >/dev/null 2>&1 || { ok 1 "vmtrace synth $n"; continue; }
	fi
	"$V" --strict "$T/$n.vmt" >"$T/out" 2>&1
	ok $? "$n: $(grep '^fidelity: checkpoints' "$T/out")"
done
done_testing

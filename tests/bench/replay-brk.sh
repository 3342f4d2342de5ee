#!/bin/sh
# Replay speed: an AIM9 brk_test style loop (16 x brk +1 page, brk -16 pages)
# run natively vs the same loop replayed by vmreplay from its own trace,
# side by side in alternating rounds; prints median ops/s and the ratios.
# The cost of a brk depends on where the heap sits in the kernel's tree of
# VMAs, which ASLR changes with every recording (of six recordings, one
# replayed at 0.80 of native and the others at 0.91-0.99; the native loop's
# own runs spread as much), so the rounds take turns over TRACES recordings.
# Target: replay (--no-outcomes) >= 0.9 x native.  Merge outcomes cost one
# PROCMAP_QUERY per call, outside the timed call: they lower the wall rate,
# not the per-call ops/s.  brk_loop gives the native loop the same heap the
# recorded one had (see its comment).
set -e
B=${VMREC_BUILD:-build}
LOOP=$B/tests/replay/progs/brk_loop
V=$B/bin/vmreplay
ITER=${ITER:-20000}
ROUNDS=${ROUNDS:-15}
T=$(mktemp -d "${TMPDIR:-/tmp}/vmrec-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT

TRACES=${TRACES:-5}
for k in $(seq "$TRACES"); do "$LOOP" "$ITER" "$T/brk$k.vmt" >/dev/null; done
metric() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["metrics"][sys.argv[2]][0])' "$1" "$2"; }
: >"$T/native"; : >"$T/fast"; : >"$T/full"; : >"$T/incall"; : >"$T/incall_o"
for r in $(seq "$ROUNDS"); do
	trace=$T/brk$((r % TRACES + 1)).vmt
	"$LOOP" "$ITER" | awk '{print $4}' >>"$T/native"
	"$V" -q --no-outcomes --json "$T/f.json" "$trace"
	metric "$T/f.json" vmreplay.events_per_sec >>"$T/fast"
	metric "$T/f.json" vmreplay.brk.ops_per_sec >>"$T/incall"
	"$V" -q --json "$T/o.json" "$trace"
	metric "$T/o.json" vmreplay.events_per_sec >>"$T/full"
	metric "$T/o.json" vmreplay.brk.ops_per_sec >>"$T/incall_o"
done
median() { sort -g "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
# ratios per round (the machine's load changes between rounds), then medians
ratios() { paste "$1" "$T/native" | awk '{print $1 / $2}' >"$T/r"; median "$T/r"; }
best() { sort -g "$1" | tail -1; }
n=$(median "$T/native"); f=$(median "$T/fast"); o=$(median "$T/full"); c=$(median "$T/incall")
# best of the rounds on each side: the least disturbed run of each (shared machine)
bn=$(best "$T/native"); bf=$(best "$T/fast"); bo=$(best "$T/full")
rf=$(ratios "$T/fast"); ro=$(ratios "$T/full"); rc=$(ratios "$T/incall"); rco=$(ratios "$T/incall_o")
awk -v bn="$bn" -v bf="$bf" -v bo="$bo" -v n="$n" -v f="$f" -v o="$o" -v c="$c" -v rf="$rf" -v ro="$ro" -v rc="$rc" -v rco="$rco" -v it="$ITER" -v r="$ROUNDS" -v nt="$TRACES" 'BEGIN {
	printf "replay-brk: brk_test loop, %d calls, medians of %d alternating rounds over %d recordings\n", it * 17, r, nt
	printf "  native loop                       %10.0f ops/s\n", n
	printf "  vmreplay --no-outcomes (wall)     %10.0f ops/s  ratio %.2f (target >= 0.90)\n", f, rf
	printf "  vmreplay with merge outcomes      %10.0f ops/s  ratio %.2f\n", o, ro
	printf "  vmreplay, time inside the call    %10.0f ops/s  ratio %.2f (%.2f with outcomes)\n", c, rc, rco
	printf "  best of %d: native %.0f, --no-outcomes %.0f (ratio %.2f), with outcomes %.0f (ratio %.2f)\n", r, bn, bf, bf / bn, bo, bo / bn
}'

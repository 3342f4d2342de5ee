#!/bin/sh
# sim-calibration: the simulator's modelled time against this kernel.
# 1. vmreplay --calibrate: the cost per model unit fitted here and the
#    fit's error per kind of call (docs/kernel-profiles.md, "Modelled time").
# 2. fork() of 1 GiB populated with each mTHP size this machine offers,
#    natively (tests/bench/fork-mthp.c), against the `host` profile's
#    cost_ns per fork of `vmtrace synth fork` with that size (--mthp):
#    ratio per size and Spearman's rank correlation.  Needs root to set
#    /sys/kernel/mm/transparent_hugepage/hugepages-*kB/enabled (the size
#    `madvise`, 2 MiB `never`); every setting is put back on exit, on
#    failure and on a signal.  Sizes are measured in two alternating passes
#    (A B C A B C), each a median of 11 forks, and the lower kept.
B=${VMREC_BUILD:-$(dirname "$0")/../../build}
BIN=$B/bin
T=$(mktemp -d /tmp/vmrec-bench-calib.XXXXXX) || exit 1
THP=/sys/kernel/mm/transparent_hugepage
SAVED=$T/saved   # "path mode" of every setting changed, to put back

restore() {
	if [ -s "$SAVED" ]; then
		while read -r f mode; do echo "$mode" >"$f" 2>/dev/null; done <"$SAVED"
		: >"$SAVED"
	fi
}
cleanup() { restore; rm -rf "$T"; }
trap cleanup EXIT
trap 'cleanup; exit 1' INT TERM HUP

"$BIN/vmreplay" --calibrate "$T/calib.txt" || { echo "sim-calibration: vmreplay --calibrate failed"; exit 1; }
echo "sim-calibration: $(sed -n 's/^machine //p' "$T/calib.txt"), kernel $(sed -n 's/^kernel //p' "$T/calib.txt")"
echo "sim-calibration: ns per unit: $(sed -n 's/^unit \([a-z_0-9]*\) *\([0-9.]*\)/\1 \2/p' "$T/calib.txt" | tr '\n' ',' | sed 's/,$//; s/,/, /g')"
echo "sim-calibration: fit per kind of call (calls, median error of the model, mean measured and modelled):"
sed -n 's/^fit /sim-calibration:   /p' "$T/calib.txt"

# ---- fork with mTHP: natively and in the model -----------------------------
"$BIN/vmtrace" synth fork --iterations 1 -o "$T/fork1.lz4" >/dev/null &&
	"$BIN/vmtrace" synth fork --iterations 11 -o "$T/fork11.lz4" >/dev/null || exit 1
cost() { # TRACE MTHP: the host profile's cost_ns
	"$BIN/vmreplay" -q --target sim --kernel host --thp never --mthp "$2" --calibration "$T/calib.txt" \
		--json "$T/o.json" "$1" >/dev/null 2>&1 &&
		sed -n 's/.*"vmreplay\.model\.cost_ns": \[\([0-9]*\)\].*/\1/p' "$T/o.json"
}
model_fork() { # MTHP: modelled ns per fork (11 forks less 1, over 10)
	a=$(cost "$T/fork1.lz4" "$1") b=$(cost "$T/fork11.lz4" "$1")
	[ -n "$a" ] && [ -n "$b" ] && echo $(((b - a) / 10))
}
sizes=
if [ "$(id -u)" != 0 ] || [ ! -w "$THP/hugepages-2048kB/enabled" ]; then
	echo "sim-calibration: fork with mTHP: skipped (needs root and $THP/hugepages-*kB/enabled)"
	exit 0
fi
for d in "$THP"/hugepages-*kB; do
	kb=${d##*hugepages-}; kb=${kb%kB}
	[ "$kb" -ge 16 ] && [ "$kb" -lt 2048 ] && [ -w "$d/enabled" ] && sizes="$sizes $kb"
done
sizes=$(echo $sizes | tr ' ' '\n' | sort -n | tr '\n' ' ')
for d in "$THP"/hugepages-*kB; do
	[ -w "$d/enabled" ] && echo "$d/enabled $(sed 's/.*\[\(.*\)\].*/\1/' "$d/enabled")" >>"$SAVED"
done
for d in "$THP"/hugepages-*kB; do [ -w "$d/enabled" ] && echo never >"$d/enabled" 2>/dev/null; done
offered=
for kb in $sizes; do
	echo madvise >"$THP/hugepages-${kb}kB/enabled" 2>/dev/null && offered="$offered $kb"
	echo never >"$THP/hugepages-${kb}kB/enabled" 2>/dev/null
done
: >"$T/native"
for pass in 1 2; do
	for kb in 4 $offered; do
		[ "$kb" = 4 ] || echo madvise >"$THP/hugepages-${kb}kB/enabled"
		ns=$("$B/bench/fork-mthp") || ns=
		[ "$kb" = 4 ] || echo never >"$THP/hugepages-${kb}kB/enabled"
		echo "$kb $ns" >>"$T/native"
	done
done
restore
echo "sim-calibration: fork() of 1 GiB by folio size: native (the lower of 2 passes, each the median of 11 forks) and modelled (host, cost_ns):"
: >"$T/pairs"
for kb in 4 $offered; do
	nat=$(awk -v k="$kb" '$1 == k && $2 != "" { print $2 }' "$T/native" | sort -n | head -n 1)
	if [ "$kb" = 4 ]; then m=none; else m=${kb}K; [ "$kb" -ge 1024 ] && m=$((kb / 1024))M; fi
	mod=$(model_fork "$m")
	[ -n "$nat" ] && [ -n "$mod" ] || { echo "sim-calibration:   ${kb} KiB: not measured"; continue; }
	echo "$kb $nat $mod" >>"$T/pairs"
	awk -v k="$kb" -v n="$nat" -v m="$mod" 'BEGIN { printf "sim-calibration:   %5s KiB  native %8.2f ms  model %8.2f ms  native/model %.2f\n", k, n / 1e6, m / 1e6, n / m }'
done
awk '{ k[NR] = $1; x[NR] = $2; y[NR] = $3 } END {
	n = NR
	for (i = 1; i <= n; i++) { rx[i] = 1; ry[i] = 1; tx = 0; ty = 0
		for (j = 1; j <= n; j++) { if (x[j] < x[i]) rx[i]++; if (x[j] == x[i] && j != i) tx++
		                           if (y[j] < y[i]) ry[i]++; if (y[j] == y[i] && j != i) ty++ }
		rx[i] += tx / 2; ry[i] += ty / 2 }
	for (i = 1; i <= n; i++) { mx += rx[i] / n; my += ry[i] / n }
	for (i = 1; i <= n; i++) { sxy += (rx[i] - mx) * (ry[i] - my); sxx += (rx[i] - mx) ^ 2; syy += (ry[i] - my) ^ 2 }
	if (n > 1 && sxx > 0 && syy > 0) printf "sim-calibration: Spearman rank correlation over %d sizes: %.2f\n", n, sxy / sqrt(sxx * syy)
	else printf "sim-calibration: Spearman rank correlation over %d sizes: undefined (ties)\n", n }' "$T/pairs"

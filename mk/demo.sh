#!/bin/sh
# mk/demo.sh - `make demo`: the main job end to end.
#   1. record real programs with vmrec,
#   2. synthesise the benchmark workloads (vmtrace synth),
#   3. replay them on this kernel (--repeat 3), in the simulator's 6.1 and
#      6.8 profiles (--per-event), and in real 6.1 and 6.12 kernels under QEMU,
#   4. print the LKP-style reports, the traces whose columns differ first,
#      and write build/demo/report.html.
# Tool output goes to $OUT/logs/; stdout keeps the sections and the reports.
#
# Environment: VMREC_BUILD (build dir, with bin/), VMREC_SRC (source tree),
# VMREC_DEMO_QUICK=1 or --quick (no QEMU, small iteration counts, for tests),
# VMREC_DEMO_OUT (output directory, default $VMREC_BUILD/demo).
set -u

S=${VMREC_SRC:-$(cd "$(dirname "$0")/.." && pwd)}
B=${VMREC_BUILD:-$S/build}
OUT=${VMREC_DEMO_OUT:-$B/demo}
QUICK=${VMREC_DEMO_QUICK:-0}
[ "${1:-}" = --quick ] && QUICK=1
# From the source tree, with paths relative to it where they are inside it,
# so each report's "reproduce:" lines can be pasted from a checkout.
cd "$S" || exit 1
case $B in "$S"/*) B=${B#"$S"/} ;; esac
case $OUT in "$S"/*) OUT=${OUT#"$S"/} ;; esac
BIN=$B/bin
REPEAT=3
SIM_PROFILES="6.1 6.8"
VM_KERNELS="6.1,6.12,host"
started=$(date +%s)

die() { echo "demo: $*" >&2; exit 1; }

# try LOG CMD... : CMD's output to $OUT/logs/LOG.log; on failure say which
# command failed, show the end of its log and return non-zero.
try() {
	_log=$OUT/logs/$1.log
	shift
	echo "\$ $*" >>"$_log"
	"$@" >>"$_log" 2>&1 && return 0
	_rc=$?
	echo "demo: failed (exit $_rc): $*" >&2
	tail -n 5 "$_log" | sed 's/^/  | /' >&2
	echo "demo: full log: $_log" >&2
	return 1
}
run() { try "$@" || exit 1; }

section() { printf '\n=== %s ===\n\n' "$*"; }
# vmfile KERNEL NAME: the results file of trace NAME in KERNEL (6.1, 6.12,
# host), as vmreplay --vm named it on stderr ("wrote FILE (KERNEL, TRACE)")
vmfile() {
	awk -v tail=" ($1, $T/$2.lz4)" 'index($0, "vmreplay --vm: wrote ") == 1 &&
		substr($0, length($0) - length(tail) + 1) == tail {
		s = substr($0, 22); print substr(s, 1, length(s) - length(tail)) }' "$OUT/logs/vm.log"
}
# rows FILE: the report shows a metric's row (section 5 drops the guests'
# timing rows, so "all rows folded" alone does not say it)
rows() { grep -q '  vmreplay\.' "$1"; }
# reports SECTION NAME...: each trace's report (made by report_NAME into
# $OUT/work/SECTION-NAME.txt) with the traces where a row differs first,
# then one line for each trace that shows none; DIFFERS gets
# the traces that showed a row
reports() {
	sec=$1
	shift
	for n; do
		f=$OUT/work/$sec-$n.txt
		rows "$f" || continue
		DIFFERS="$DIFFERS $n"
		echo "--- $n"
		cat "$f"
		echo
	done
	first=1
	for n; do
		f=$OUT/work/$sec-$n.txt
		rows "$f" && continue
		[ $first = 1 ] && echo "--- no row differs (vmreport --all shows them):"
		first=0
		printf '  %-16s %s\n' "$n" "$(grep 'rows folded' "$f" | sed 's/ more rows folded/ rows folded/; s/; --all shows them\.$//')"
	done
	[ $first = 1 ] || echo
}
# cost TRACE KERNEL OPTS: the modelled time of a replay in the simulator
cost() {
	f=$OUT/work/cost-$(basename "$1" .lz4)-$2.json
	# shellcheck disable=SC2086
	"$BIN/vmreplay" -q --target sim --kernel "$2" $3 --json "$f" "$1" >>"$OUT/logs/model.log" 2>&1 &&
		sed -n 's/.*"vmreplay\.model\.cost_ns": \[\([0-9]*\)\].*/\1/p' "$f"
}
# prediction NAME ops|time OPTS TRACE OLD NEW...: one line, each NEW's
# predicted change against OLD (the fork trace: per fork, its cost less
# that of fork1.lz4, one fork)
prediction() {
	name=$1 kind=$2 opts=$3 trace=$4 old=$5
	shift 5
	[ -e "$trace" ] || return 0
	line=
	base=$(cost "$trace" "$old" "$opts")
	one=
	[ "$(basename "$trace")" = fork.lz4 ] && one=$OUT/work/fork1.lz4
	[ -n "$one" ] && base=$((base - $(cost "$one" "$old" "$opts")))
	for k in "$@"; do
		c=$(cost "$trace" "$k" "$opts")
		[ -n "$one" ] && c=$((c - $(cost "$one" "$k" "$opts")))
		line="$line  $k: $(awk -v o="$base" -v n="$c" -v k="$kind" 'BEGIN {
			if (o <= 0 || n <= 0) { print "?"; exit }
			printf "%+.1f%%", 100 * (k == "ops" ? o / n - 1 : n / o - 1) }')"
	done
	printf '  %-18s%s\n' "$name" "$line"
}

for t in vmrec vmtrace vmreplay vmreport; do
	[ -x "$BIN/$t" ] || die "$BIN/$t is missing: run 'make' first"
done
# Only ever remove a directory that an earlier demo made.
[ ! -e "$OUT" ] || [ -d "$OUT/logs" ] || die "$OUT exists and is not a demo output directory"
rm -rf "$OUT"
mkdir -p "$OUT/traces" "$OUT/results" "$OUT/logs" "$OUT/html" "$OUT/work" ||
	die "cannot create $OUT"
T=$OUT/traces R=$OUT/results

# The system python, not a version manager's shim (a shell script that
# would be recorded instead of python).
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || die "python3 not found (make deps installs it)"
CC_=$(command -v cc) || die "cc not found (make deps installs gcc)"

glibc=$(ldd --version 2>/dev/null | sed -n '1s/.* //p')
mode=full
[ "$QUICK" = 1 ] && mode="quick (no QEMU, small iteration counts)"
echo "vmrec demo: kernel $(uname -r), glibc $glibc, $(nproc) cores; mode $mode"
echo "output: $OUT (tool logs in $OUT/logs)"

# ---- 1. record ------------------------------------------------------------
section "1. Record real programs (vmrec)"
# name | command
RECORDINGS="python3-json|$PY -c 'import json'
cc-compile|$CC_ -O2 -c $OUT/work/hello.c -o $OUT/work/hello.o
python3-threads|$PY -c 'import threading; ts=[threading.Thread(target=bytearray, args=(1<<20,)) for _ in range(8)]; [t.start() for t in ts]; [t.join() for t in ts]'"
printf '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n' >"$OUT/work/hello.c"
REC_NAMES=
while IFS='|' read -r name cmd; do
	eval "run record-$name \"\$BIN/vmrec\" -o \"\$T/\$name.lz4\" -- $cmd"
	# A trace that fails the strict check may still replay: say so, go on.
	chk=$("$BIN/vmtrace" check "$T/$name.lz4" 2>&1) ||
		echo "  note: vmtrace check: $chk" | sed "s|$T/||"
	ev=$("$BIN/vmtrace" stats "$T/$name.lz4" | sed -n 's/^events: *\([0-9]*\).*/\1/p')
	printf '  %-16s %5s events  %s\n' "$name" "$ev" "$cmd"
	REC_NAMES="$REC_NAMES $name"
done <<EOF
$RECORDINGS
EOF

# ---- 2. synthesise ----------------------------------------------------------
section "2. Synthesise benchmark workloads (vmtrace synth)"
# name | options; quick mode uses the second list
if [ "$QUICK" = 1 ]; then
	SYNTH="brk_test|--iterations 50
brk1|--iterations 100
mmap1|--iterations 50
pthread|--iterations 3"
else
	SYNTH="brk_test|
page_test|
brk1|
mmap1|
pthread|
fork|"
fi
SYN_NAMES=
while IFS='|' read -r name opts; do
	# shellcheck disable=SC2086
	run synth "$BIN/vmtrace" synth "$name" $opts -o "$T/$name.lz4"
	ev=$("$BIN/vmtrace" stats "$T/$name.lz4" | sed -n 's/^events: *\([0-9]*\).*/\1/p')
	printf '  %-16s %5s events  vmtrace synth %s\n' "$name" "$ev" "$name${opts:+ $opts}"
	SYN_NAMES="$SYN_NAMES $name"
done <<EOF
$SYNTH
EOF
ALL="$REC_NAMES $SYN_NAMES"

# ---- 3. replay --------------------------------------------------------------
section "3. Replay: this kernel (--repeat $REPEAT) and the simulator's $(echo "$SIM_PROFILES" | sed 's/ / and /') profiles"
for n in $ALL; do
	run replay "$BIN/vmreplay" -q --repeat $REPEAT --per-event \
		--json "$R/$n-host.json" "$T/$n.lz4"
	for k in $SIM_PROFILES; do
		run replay "$BIN/vmreplay" -q --target sim --kernel "$k" --per-event \
			--repeat $REPEAT --json "$R/$n-sim$k.json" "$T/$n.lz4"
	done
	echo "  $n: host kernel, sim:$(echo "$SIM_PROFILES" | sed 's/ /, sim:/g')"
done

# ---- 3b. real kernels under QEMU ---------------------------------------------
# Guest CPUs are emulated (TCG): only VMA counts and merge outcomes compare.
VM_NAMES="pthread python3-json python3-threads"
VM_OK=0
vm_unavailable() { echo "  skipped: $*"; }
section "3b. Replay in real kernels under QEMU: $VM_KERNELS"
store=${VMREC_KERNELS:-$B/kernels}
if [ "$QUICK" = 1 ]; then
	vm_unavailable "quick mode"
elif ! command -v qemu-system-x86_64 >/dev/null &&
	! sh "$S/mk/deps.sh" qemu-system-x86 >>"$OUT/logs/vm.log" 2>&1; then
	vm_unavailable "qemu-system-x86 cannot be installed: $(tail -n 1 "$OUT/logs/vm.log" | sed "s/^ *//")"
elif ! { ls "$store"/6.1.*/vmlinuz && ls "$store"/6.12.*/vmlinuz; } >/dev/null 2>&1 &&
	! make -C "$S" --no-print-directory BUILD="$B" kernels >>"$OUT/logs/vm.log" 2>&1; then
	vm_unavailable "the Debian 6.1/6.12 kernels cannot be fetched: $(grep '^vmrec-kernels: ' "$OUT/logs/vm.log" | tail -n 1)"
else
	# shellcheck disable=SC2086
	set -- $VM_NAMES
	traces=
	for n; do traces="$traces $T/$n.lz4"; done
	VM_CMD="$BIN/vmreplay --vm $VM_KERNELS --repeat $REPEAT --per-event --json $R/vm.json --$traces"
	# shellcheck disable=SC2086 # the words of the command, as printed
	if try vm $VM_CMD; then
		VM_OK=1
		for n; do
			echo "  $n: real 6.1, real 6.12, host"
		done
	else
		echo "  failed: going on without real kernels (see $OUT/logs/vm.log)"
	fi
fi

# ---- 4. reports ------------------------------------------------------------
report() { # NAME RESULTS... : the text report of one trace, kept in report.txt
	if ! "$BIN/vmreport" "$@" >"$OUT/logs/report.tmp" 2>>"$OUT/logs/report.log"; then
		: >"$OUT/logs/report.failed"
		echo "demo: failed: vmreport $*" >&2
		tail -n 5 "$OUT/logs/report.log" | sed 's/^/  | /' >&2
		exit 1
	fi
	# The heading names the trace; the statistic (a paragraph up to the
	# blank line) and the footnotes are said once, at the end.
	sed '/^vmreport: trace /d; /^n\/a: timings/d; /^statistic: /,/^$/{/^$/!d}' "$OUT/logs/report.tmp"
	sed -n '/^statistic: /,/^$/p; /^n\/a: timings/p' "$OUT/logs/report.tmp" >"$OUT/logs/report.notes"
}

DIFFERS=
{
	section "4. Host kernel vs simulator profiles (LKP-style; %change against the first column)"
	for n in $ALL; do
		set -- "$R/$n-host.json"
		for k in $SIM_PROFILES; do set -- "$@" "$R/$n-sim$k.json"; done
		report "$@" >"$OUT/work/4-$n.txt"
	done
	# shellcheck disable=SC2086
	reports 4 $ALL

	if [ "$VM_OK" = 1 ]; then
		section "5. Real 6.1 vs real 6.12 vs host: VMA counts and merge outcomes"
		echo "made by: $VM_CMD"
		echo
		for n in $VM_NAMES; do
			# Guest timings are not comparable: leave them out.
			# --trace: the results name the guest's path of the trace
			report --trace "$T/$n.lz4" --label real-6.1,real-6.12,host "$(vmfile 6.1 "$n")" \
				"$(vmfile 6.12 "$n")" "$(vmfile host "$n")" |
				grep -v 'ops_per_sec\|elapsed_ns\|events_per_sec\|clock_cost_ns' >"$OUT/work/5-$n.txt"
		done
		# shellcheck disable=SC2086
		reports 5 $VM_NAMES
	fi
	echo "$DIFFERS" >"$OUT/work/differs"

	cat "$OUT/logs/report.notes"

	section "6. First events where the 6.1 and 6.8 profiles diverge: thread churn (pthread)"
	report --explain=3 "$R/pthread-sim6.1.json" "$R/pthread-sim6.8.json" |
		sed -n '/^explain:/,$p'

	section "7. The regressions that motivated vmrec: the robot's figure and the modelled time"
	cal="$(sed -n 's/^machine //p' replay/sim/calibration.txt), $(sed -n 's/^kernel //p' replay/sim/calibration.txt)"
	echo "(vmreplay --target sim --kernel K: vmreplay.model.cost_ns, calibrated on $cal"
	echo " (replay/sim/calibration.txt; vmreplay --calibrate remakes it); a prediction is"
	echo " cost_ns(old) / cost_ns(new) - 1 for ops/s, new / old - 1 for time; docs/kernel-profiles.md)"
	echo
	echo "aim9.brk_test: robot -6.0% (6.11 -> 6.12-rc1, cacded5e42b9 M1), -2.0% with the"
	echo "expand-only mode (c4d91e225ff3 M2, 6.12-rc6); predicted ops/s change:"
	for n in brk_test $REC_NAMES; do
		prediction "$n" ops "" "$T/$n.lz4" 6.11 6.12-rc1 6.12
	done
	echo "aim9.page_test: robot -10.8% (6.3 -> 6.4, 28c5609fb2 C1); predicted ops/s change:"
	for n in page_test $REC_NAMES; do
		prediction "$n" ops "" "$T/$n.lz4" 6.3 6.4
	done
	echo "stress-ng.pthread: robot -84.3%, time x6.4 (6.6 -> 6.7, efa7df3e3bb5 T1; THP"
	echo "always), undone in 6.8 (c4608d1bf7c6 T4); predicted ops/s change:"
	for n in pthread $REC_NAMES; do
		prediction "$n" ops "--placement kernel --thp always" "$T/$n.lz4" 6.6 6.7 6.8
	done
	echo "fork() of 1 GiB of PTE-mapped folios: cover letter time -26% with 64 KiB folios,"
	echo "-2% with 4 KiB (6.8 -> 6.9, f8d937761d65 F1); predicted time change per fork:"
	if [ -e "$T/fork.lz4" ]; then
		run synth "$BIN/vmtrace" synth fork --iterations 1 -o "$OUT/work/fork1.lz4"
		for m in 64K none; do
			prediction "fork ($m)" time "--thp never --mthp $m" "$T/fork.lz4" 6.8 6.9
		done
	fi
	for n in $REC_NAMES; do
		prediction "$n (64K)" time "--thp never --mthp 64K" "$T/$n.lz4" 6.8 6.9
	done
	echo "mseal: the robot's reports on 8be7258aad44 (6.10) walked each range for sealed"
	echo "VMAs first; 6.12 checks VMA by VMA (df2a7df9a9aa); predicted ops/s change:"
	for n in mmap1 $REC_NAMES; do
		prediction "$n" ops "" "$T/$n.lz4" 6.8 6.11 6.12
	done
} | tee "$OUT/report.txt"
[ -e "$OUT/logs/report.failed" ] && exit 1

# HTML: one page with a section per trace, those where a row differs
# first (the recorded programs first among them), each with every column
# it has; and one page per trace.
DIFFERS=$(cat "$OUT/work/differs")
ORDER=
for n in $ALL; do
	case " $DIFFERS " in *" $n "*) ORDER="$ORDER $n" ;; esac
done
for n in $ALL; do
	case " $DIFFERS " in *" $n "*) ;; *) ORDER="$ORDER $n" ;; esac
done
set --
labels=
for n in $ORDER; do
	set -- "$@" "$R/$n-host.json"
	labels="$labels${labels:+,}host $(uname -r)"
	for k in $SIM_PROFILES; do
		set -- "$@" "$R/$n-sim$k.json"
		labels="$labels,sim:$k"
	done
	if [ "$VM_OK" = 1 ] && [ -n "$(vmfile 6.1 "$n")" ] && [ -n "$(vmfile 6.12 "$n")" ]; then
		set -- "$@" "$(vmfile 6.1 "$n")" "$(vmfile 6.12 "$n")"
		labels="$labels,real-6.1,real-6.12"
	fi
done
run report "$BIN/vmreport" --by-trace --explain --label "$labels" --format html -o "$OUT/report.html" "$@"
for n in $ALL; do
	set -- "$R/$n-host.json"
	for k in $SIM_PROFILES; do set -- "$@" "$R/$n-sim$k.json"; done
	run report "$BIN/vmreport" --format html -o "$OUT/html/$n.html" "$@"
done

section "Done in $(($(date +%s) - started)) s"
echo "report:     $OUT/report.html (every trace, those whose columns differ first, every column)"
echo "            $OUT/html/<trace>.html (one page per trace), $OUT/report.txt (the text above)"
echo "results:    $R/<trace>-<host|sim6.1|sim6.8>.json, $R/vm-<release>-<index>.json (QEMU)"
echo "reproduce a row: the 'reproduce:' line under each column, e.g."
echo "  $BIN/vmreplay --target sim --kernel 6.1 --per-event --repeat $REPEAT --json out.json $T/pthread.lz4"

#!/bin/sh
# symbolize.sh - how long `vmtrace top` takes on a python3 start-up trace
# with stacks, without the symbol cache (libdwfl opens every object) and
# with it, measured side by side in one run.  Prints medians and the ratio.
set -e
S=${VMREC_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${VMREC_BUILD:-$S/build}
T=$(mktemp -d "${TMPDIR:-/tmp}/vmrec-bench-sym.XXXXXX")
trap 'rm -rf "$T"' EXIT
V=$B/bin/vmtrace
PY=${PYTHON:-/usr/bin/python3}
RUNS=${RUNS:-7}
[ -x "$V" ] && [ -x "$PY" ] || { echo "symbolize: skipped (needs $V and $PY)"; exit 0; }

# Prefer the recorder's own stacks; until it records them, selfrec does.
if [ -x "$B/bin/vmrec" ] && "$B/bin/vmrec" --stacks=16 -o "$T/py.vmt" -- "$PY" -c 'import json' 2>/dev/null &&
	! "$V" top "$T/py.vmt" 2>&1 >/dev/null | grep -q 'has no stacks'; then
	how="vmrec --stacks=16"
else
	${CC:-cc} -g -O1 -fPIC -shared -D_GNU_SOURCE -I"$S/traces" -o "$T/selfrec.so" \
		"$S/tests/symbols/src/preload.c" "$S/tests/symbols/src/selfrec.c" "$B/lib/libvmt.a" -llz4
	SELFREC_OUT=$T/py.vmt LD_PRELOAD=$T/selfrec.so "$PY" -c 'import json'
	how="selfrec preload"
fi

ns() { date +%s%N; }
# median of RUNS timings (ns) of `vmtrace $2 TRACE`; $1 = nocache drops
# the symbol cache before each run.  top --folded symbolises what the table
# does, without the simulator replay that counts the table's new column.
median() {
	for i in $(seq "$RUNS"); do
		[ "$1" = nocache ] && rm -f "$T/py.vmt.syms"
		t0=$(ns); "$V" $2 "$T/py.vmt" >/dev/null 2>&1; t1=$(ns)
		echo $((t1 - t0))
	done | sort -n | sed -n "$(((RUNS + 1) / 2))p"
}
"$V" top "$T/py.vmt" >/dev/null 2>&1   # warm the page cache and the symbol cache
base=$(median cached dump) cached=$(median cached "top --folded") cold=$(median nocache "top --folded")
events=$("$V" dump "$T/py.vmt" | grep -c '^[0-9]' || true)
awk -v c="$cold" -v w="$cached" -v b="$base" -v e="$events" -v how="$how" 'BEGIN {
	printf "symbolize: python3 -c \"import json\" (%d events, %s): vmtrace top --folded without cache %.1f ms, with cache %.1f ms (%.1fx faster); vmtrace dump, no symbols, %.1f ms\n",
		e, how, c / 1e6, w / 1e6, c / w, b / 1e6 }'

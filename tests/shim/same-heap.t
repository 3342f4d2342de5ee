#!/bin/sh
# The recorder brings nothing the program's own allocations depend on: the
# program's environment is its own (VMREC_* and the recorder's LD_PRELOAD
# entry are not in it; their size alone changed python's heap), so
# `python3 -c 'import json'` makes the brk calls it makes natively.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
have_strace || skip_all "strace not usable here"
PY=/usr/bin/python3
[ -x "$PY" ] || skip_all "no $PY"

# python's heap grows with its os.environ dict, which resizes at certain
# numbers of variables: try each number around one such step (43 here)
vars="PATH=$PATH PYTHONHASHSEED=0"
differ=0
for i in $(seq 1 48); do
	vars="$vars V$i=x"
	[ "$i" -ge 30 ] || continue
	env -i $vars strace -qq -e signal=none -e trace=brk -o "$T/native" "$PY" -c 'import json'
	env -i $vars strace -qq -e signal=none -e trace=brk -E LD_PRELOAD="$LIB" \
		-E VMREC_OUT="$T/py.lz4" -o "$T/recorded" "$PY" -c 'import json'
	if [ "$(grep -c '^brk(' "$T/recorded")" != "$(grep -c '^brk(' "$T/native")" ]; then
		differ=$((differ + 1))
		diag "$((i + 2)) variables: $(grep -c '^brk(' "$T/recorded") brk calls, natively $(grep -c '^brk(' "$T/native")"
	fi
done
is "$differ" 0 "python3 -c 'import json': as many brk calls as natively, with 32 to 50 variables"
LD_PRELOAD="/no/such/other.so $LIB" VMREC_OUT=$T/env.lz4 env 2>/dev/null >"$T/env"
# the recorder's own variables go; another VMREC_ name is the user's
is "$(grep -c '^VMREC_\(OUT\|STORE\|EXEC\|LAUNCHER\|MODE\|TRAMPOLINE\)=' "$T/env")" 0 \
   "none of the recorder's VMREC_ variables in the program's environment"
VMREC_STRAY=1 LD_PRELOAD=$LIB VMREC_OUT=$T/env2.lz4 env 2>/dev/null | grep -c '^VMREC_STRAY=1$' >"$T/n"
is "$(cat "$T/n")" 1 "a VMREC_ variable the recorder does not use stays"
is "$(grep '^LD_PRELOAD=' "$T/env")" "LD_PRELOAD=/no/such/other.so" "LD_PRELOAD keeps only the program's own entries"
LD_PRELOAD=$LIB VMREC_OUT=$T/sh.lz4 sh -c 'env | grep -c "^VMREC_\(OUT\|STORE\|EXEC\)=\|^LD_PRELOAD=\|^$"' >"$T/n"
is "$(cat "$T/n")" 0 "nor in a child's"
ok $([ "$("$TC" -a "$T/sh.lz4" | grep -c '^process ')" -ge 3 ]; echo $?) "and the children are still recorded"
done_testing

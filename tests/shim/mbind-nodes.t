#!/bin/sh
# mbind's nodemask is recorded (a RANGES record of kind NODEMASK, format
# 5: the maxnode - 1 bits the kernel reads) and replayed as recorded: a
# node this machine lacks is EINVAL again, an unreadable mask EFAULT, so
# --strict is exact on this kernel and in the simulator.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/shim.sh"
PROG=$B/tests/shim/progs/mbind_nodes V=$B/bin/vmreplay
need_built "$PROG" "$V"
[ -d /sys/devices/system/node/node1 ] && skip_all "this machine has a node 1: the program's EINVAL case needs one node"
"$PROG" >"$T/native" 2>&1
record "$T/m.lz4" "$PROG" >"$T/out" 2>&1
is "$(cat "$T/out")" "$(cat "$T/native")" "the program's results are unchanged"
# the nodes read, per mbind, in call order ("-" where none was recorded)
"$TC" -a "$T/m.lz4" | awk '$1 == "ranges" && $6 == 5 { sub(/.* nodes /, ""); r = $0 }
	$3 == "mbind" { print (r == "" ? "-" : r); r = "" }' >"$T/got"
cat >"$T/want" <<'EOF2'
0x1
0x1 0
0x3
0x2
-
-
-
EOF2
is_file "$T/got" "$T/want" "each mbind's nodemask, as far as the kernel reads it"
"$V" -q --strict "$T/m.lz4" >"$T/k" 2>&1
is "$?:$(cat "$T/k")" "0:" "replayed --strict on this kernel"
"$V" -q --strict --target sim --kernel host "$T/m.lz4" >"$T/s" 2>&1
is "$?:$(cat "$T/s")" "0:" "replayed --strict in the simulator (host)"
done_testing

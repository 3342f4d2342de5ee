#!/bin/sh
# Neighbouring ranges registered with two userfaultfds stay two VMAs
# (their contexts differ), with one they merge: the replay registers
# with one userfaultfd per recorded descriptor, and the simulator keeps
# contexts apart (U1), so --strict is exact on both back ends.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/shim.sh"
PROG=$B/tests/shim/progs/uffd_contexts V=$B/bin/vmreplay
need_built "$PROG" "$V"
"$PROG" >"$T/native" 2>&1
[ $? -eq 77 ] && skip_all "no userfaultfd here"
record "$T/u.lz4" "$PROG" >"$T/out" 2>&1
is "$(cat "$T/out")" "PASS" "the program's results are unchanged"
"$V" -q --strict "$T/u.lz4" >"$T/k" 2>&1
is "$?:$(cat "$T/k")" "0:" "replayed --strict on this kernel"
"$V" -q --strict --target sim --kernel host "$T/u.lz4" >"$T/s" 2>&1
is "$?:$(cat "$T/s")" "0:" "replayed --strict in the simulator (host)"
done_testing

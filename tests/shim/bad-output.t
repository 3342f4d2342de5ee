#!/bin/sh
# Unwritable output: the program runs as usual with its own exit status,
# and stderr gets one warning naming the problem.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"

out=$(LD_PRELOAD=$LIB VMREC_OUT=$T/no/such/dir/t.lz4 "$P/splits" 2>"$T/err1"); st=$?
is "$out:$st" "PASS:0" "cannot open: the program runs normally"
is "$(cat "$T/err1")" "vmrec: cannot open $T/no/such/dir/t.lz4: not recording" "one clear warning"

out=$(LD_PRELOAD=$LIB VMREC_OUT=/dev/full "$P/threads_malloc" 2>"$T/err2"); st=$?
is "$out:$st" "PASS:0" "full disk: the program runs normally"
is "$(grep -c 'vmrec: cannot write the trace' "$T/err2")" 1 "full disk: warned once"

sh -c 'exit 7'; want=$?
LD_PRELOAD=$LIB VMREC_OUT=/dev/full sh -c 'exit 7' 2>/dev/null; is "$?" "$want" "exit status unchanged"
# a VMREC_OUT longer than the recorder keeps for the next image: not
# recorded, one warning, the program as it is
long=$T/$(printf 'a/%.0s' $(seq 4500))t.lz4
out=$(LD_PRELOAD=$LIB VMREC_STORE=$T/store VMREC_OUT=$long "$P/splits" 2>"$T/err3"); st=$?
is "$out:$st" "PASS:0" "an overlong name: the program runs normally"
is "$(cat "$T/err3")" "vmrec: cannot open $long: not recording" "one clear warning"
done_testing

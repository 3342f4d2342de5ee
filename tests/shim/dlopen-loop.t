#!/bin/sh
# dlopen_loop: the recorded program behaves as it does natively, and the trace
# holds exactly the VMA calls strace -f sees from main on.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
have_strace || skip_all "strace cannot trace here"

native=$("$P/dlopen_loop")
recorded=$(record "$T/run.lz4" "$P/dlopen_loop")
is "$recorded" "$native" "output unchanged when recorded"
is "$recorded" "PASS" "the program's self-check passes"
same_as_strace dlopen_loop "$P/dlopen_loop"
done_testing

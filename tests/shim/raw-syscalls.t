#!/bin/sh
# raw_syscalls: the recorded program behaves as it does natively, and the trace
# holds exactly the VMA calls strace -f sees from main on.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
have_strace || skip_all "strace cannot trace here"

native=$("$P/raw_syscalls")
recorded=$(record "$T/run.lz4" "$P/raw_syscalls")
is "$recorded" "$native" "output unchanged when recorded"
is "$recorded" "PASS" "the program's self-check passes"
same_as_strace raw_syscalls "$P/raw_syscalls"
n=$("$TC" "$T/run.lz4" | grep -c ' munmap .* TRAPPED$')
is "$n" 1 "the inline syscall instruction is caught by the trap path"
done_testing

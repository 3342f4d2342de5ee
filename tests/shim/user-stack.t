#!/bin/sh
# user_stack: a thread on a stack of the program's own ends without glibc's
# stack-release madvise; its exit is still recorded, and the trace holds
# exactly the VMA calls strace -f sees from main on.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
have_strace || skip_all "strace cannot trace here"

is "$(record "$T/run.lz4" "$P/user_stack")" "PASS" "the program runs as natively when recorded"
same_as_strace user_stack "$P/user_stack"
done_testing

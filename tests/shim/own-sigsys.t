#!/bin/sh
# A program's own SIGSYS handler keeps working beside the trap path.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"

is "$("$P/own_sigsys")" PASS "native run passes"
is "$(record "$T/run.lz4" "$P/own_sigsys")" PASS "recorded run passes"
n=$("$TC" "$T/run.lz4" | grep -c ' munmap 0 0 = -1 22 TRAPPED$')
is "$n" 1 "the trapped munmap is recorded once"
done_testing

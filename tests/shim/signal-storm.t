#!/bin/sh
# Signals inside recorded calls: no wrong result, no lost or doubled event.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"

set -- $(record "$T/run.lz4" "$P/signal_storm")
is "$1" PASS "every call's result is right"
n=$("$TC" "$T/run.lz4" | sed -n '/ munmap 0 0 /,$p' |
	grep -c ' mmap 0 0x2000 0x3 0x22 \| mmap 0 0x1000 0x1 0x22 \| mprotect 0x[0-9a-f]* 0x1000 0x1 = \| munmap 0x[0-9a-f]* 0x[12]000 = ')
is "$n" "$2" "every call in main and in the handler is in the trace"
done_testing

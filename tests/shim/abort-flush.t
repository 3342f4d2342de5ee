#!/bin/sh
# abort() and a fatal signal lose nothing already recorded; the exit
# status is the program's.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"

"$P/abort_flush" 2>/dev/null; native=$?
record "$T/run.lz4" "$P/abort_flush" 2>/dev/null; recorded=$?
is "$recorded" "$native" "exit status unchanged (SIGABRT)"
n=$("$TC" "$T/run.lz4" | grep -c ' mmap 0 0x[1-5]000 0x1 0x22 ')
is "$n" 5 "the five mmaps before abort are in the trace"
done_testing

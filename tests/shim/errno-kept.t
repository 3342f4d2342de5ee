#!/bin/sh
# Every result and errno the program sees is the one it sees natively.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"

"$P/errno_kept" >"$T/native"
record "$T/run.lz4" "$P/errno_kept" >"$T/recorded"
is_file "$T/recorded" "$T/native" "results and errno identical to the native run"
is "$(grep -c "^PASS" "$T/recorded")" 13 "every self-check passes when recorded"
done_testing

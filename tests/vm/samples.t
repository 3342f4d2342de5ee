#!/bin/sh
# A recorded program replays in the guests as on the host: cc1 is a non-PIE
# binary at 0x400000, where a non-PIE static replayer would sit itself (the
# guest's vmreplay-static is static-pie, so the whole recorded layout fits
# and every checkpoint matches on 6.1 and 6.12).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/vm/vm-setup.sh"

"$B/bin/vmreplay" --vm 6.1,6.12 --strict "$S/traces/samples/cc-compile.lz4" >"$T/out" 2>&1
ok $? "cc-compile replays --strict in both guests"
grep '^fidelity: checkpoints' "$T/out" >"$T/got"
printf 'fidelity: checkpoints matched 6/6, result mismatches 0, skipped 14, unplaceable 0\n%.0s' 1 2 >"$T/want"
is_file "$T/got" "$T/want" "every checkpoint matched and nothing unplaceable, in each guest"
done_testing

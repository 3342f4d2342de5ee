#!/bin/sh
# Fidelity: every checkpoint compared, each mismatch printed with the event
# index; --strict exits 1 unless fidelity is perfect.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

trace() {
	base_map
	cat <<EOF2
ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000
ev 100 mprotect 0x20001000 0x1000 1 0 0 0 = 0
ck 100 4 $1 1
EOF2
}
trace 9 | mk good
trace 8 | mk bad

"$V" --strict "$T/good.vmt" >"$T/out"
ok $? "perfect fidelity: exit 0"
is "$(grep '^fidelity' "$T/out")" "fidelity: checkpoints matched 2/2, result mismatches 0, skipped 0, unplaceable 0" "summary line"

"$V" --strict "$T/bad.vmt" >"$T/out"
is $? 1 "a checkpoint off by one: exit 1"
is "$(grep '^fidelity' "$T/out")" "fidelity: pid 100 checkpoint after event 1: 8 VMAs, recorded 7
fidelity: checkpoints matched 1/2, result mismatches 0, skipped 0, unplaceable 0" "the mismatch is printed with its event index"
"$V" "$T/bad.vmt" >/dev/null
ok $? "without --strict: exit 0"

# a call that fails here but succeeded when recorded is a mismatch too
{ base_map; cat <<'EOF2'
ev 100 mprotect 0x20000000 0x1000 1 0 0 0 = 0
ck 100 4 6 1
EOF2
} | mk failhere
"$V" -q --strict "$T/failhere.vmt" 2>"$T/err"
is $? 1 "failed here, succeeded when recorded: exit 1"
is "$(cat "$T/err")" "vmreplay: $T/failhere.vmt: event seq 4 (pid 100 tid 100 mprotect) succeeded on 0x20000000-0x20001000, which was not mapped then: it replays as recorded, and differs
vmreplay: $T/failhere.vmt: event 0 (mprotect): failed here (Cannot allocate memory), succeeded when recorded" "and says so (the trace's order said it first)"
done_testing

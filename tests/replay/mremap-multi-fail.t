#!/bin/sh
# A length-keeping MREMAP_FIXED move over several VMAs that fails part-way
# (X5: the kernel moves each VMA in turn; a sealed one after the first is
# EPERM, a userfaultfd-armed one EFAULT) leaves the VMAs before it moved.
# The replay follows them to the destination, so the recorded munmap of
# the moved part is replayed, not skipped as memory the replay does not
# own, and the VMA counts stay the recorded ones (mremap_test's
# mremap_move_multi_invalid_vmas, 7.2).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

# A: two pages; a one-page gap; B: one page, sealed.  The move takes A
# to 0x20100000 and stops at B (EPERM); the program unmaps A there.
{ base_map; cat <<'EOF2'
ev 100 mmap 0x20000000 0x2000 3 0x32 -1 0 = 0x20000000
ev 100 mmap 0x20003000 0x1000 3 0x32 -1 0 = 0x20003000
ev 100 mseal 0x20003000 0x1000 0 0 0 0 = 0
ev 100 mremap 0x20000000 0x4000 0x4000 3 0x20100000 0 = -1 err=1
ev 100 munmap 0x20100000 0x2000 0 0 0 0 = 0
ev 100 munmap 0x20000000 0x2000 0 0 0 0 = 0
ck 100 4 7 1
EOF2
} | mk partial

counts() { "$PYTHON" -c '
import json, sys
print(" ".join("%s:%s:%s" % (e["op"], e["outcome"], e["vma_count"]) for e in json.load(open(sys.argv[1]))["per_event"]))
' "$1"; }
want="mmap:new:6 mmap:new:7 mseal:unchanged:7 mremap:failed:7 munmap:remove:6 munmap:unchanged:6"
"$V" -q --strict --per-event --json "$T/k.json" "$T/partial.vmt" 2>"$T/k.err"
ok $? "this kernel: replayed as recorded, --strict"
grep -q 'skipped\|not own' "$T/k.err" && diag "$(cat "$T/k.err")"
is "$(counts "$T/k.json")" "$want" "this kernel: the moved part is unmapped where it went"
"$V" -q --strict --target sim --kernel host --per-event --json "$T/s.json" "$T/partial.vmt"
ok $? "the simulator: as recorded, --strict"
is "$(counts "$T/s.json")" "$want" "the simulator: the same outcomes and counts"
done_testing

#!/bin/sh
# A recorded file on hugetlbfs (its FILE record's fs_type, format 5: a
# memfd made with MFD_HUGETLB) gets a memfd of huge pages as its stand-in,
# so what the kernel refuses on hugetlb mappings fails here as recorded:
# MADV_PAGEOUT of a private mapping of it is EINVAL (uffd-unit-tests'
# hugetlb tests).  The simulator makes such a mapping VM_HUGETLB (G1).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

free=$(sed -n 's/^HugePages_Free: *//p' /proc/meminfo)
[ "${free:-0}" -ge 1 ] || skip_all "no free huge page here (vm.nr_hugepages)"

{ base_map; cat <<'EOF2'
file 100 1 2097152 /memfd:hugetlb-test fs=0x958458f6
ev 100 mmap 0x20000000 0x200000 3 0x12 3 0 = 0x20000000 file=1
ev 100 madvise 0x20000000 0x200000 21 0 0 0 = -1 err=22
ck 100 4 7 1
EOF2
} | mk huge

"$V" -q --strict "$T/huge.vmt" >"$T/out" 2>&1
is "$?:$(cat "$T/out")" "0:" "on this kernel: MADV_PAGEOUT of the hugetlbfs file's mapping is EINVAL as recorded"
"$V" -q --strict --target sim --kernel host "$T/huge.vmt" >"$T/out" 2>&1
is "$?:$(cat "$T/out")" "0:" "in the simulator too (G1)"

# A child that shares a hugetlbfs file of more than half the free huge
# pages ends, its parent waited for it (wait4: not recorded) and maps a
# new file of as many: the child's replayer, which held the first file
# (its mapping and descriptor) and so its huge pages, has ended before the
# parent's next step (engine.c), or the new file's reservation fails
# (ENOMEM).
size=$(printf '%#x' $(((free / 2 + 1) * 2097152)))
{ base_map; cat <<EOF2
file 100 1 $size /memfd:first fs=0x958458f6
file 100 2 $size /memfd:second fs=0x958458f6
ev 100 mmap 0x20000000 $size 3 0x11 3 0 = 0x20000000 file=1
ev 100 fork 0 0 0 0 0 0 = 101
process 101 100 0
ev 101 munmap 0x20000000 $size 0 0 0 0 = 0
ev 101 exit_group 0 0 0 0 0 0 = 0 noreturn
ev 100 munmap 0x20000000 $size 0 0 0 0 = 0
ev 100 mmap 0x20000000 $size 3 0x11 4 0 = 0x20000000 file=2
ck 100 5 7 1
EOF2
} | mk waited
rc=0
for run in 1 2 3 4 5; do
	"$V" -q --strict "$T/waited.vmt" >"$T/out" 2>&1 || { rc=$?; break; }
done
is "$rc:$(cat "$T/out")" "0:" "a waited-for child's hugetlbfs file is gone before the parent's next file (5 runs)"
done_testing

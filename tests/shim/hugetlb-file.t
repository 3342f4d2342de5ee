#!/bin/sh
# A file mapping's FILE record says its file system (fs_type, format 5):
# a memfd of huge pages is on hugetlbfs, a plain one on tmpfs.  Replayed,
# the hugetlb one's stand-in is of huge pages and the simulator makes its
# mapping VM_HUGETLB (G1), so MADV_PAGEOUT of it is EINVAL on both back
# ends as recorded (--strict).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/shim.sh"
PROG=$B/tests/shim/progs/hugetlb_memfd V=$B/bin/vmreplay
need_built "$PROG" "$V"
"$PROG" >"$T/native" 2>&1
[ $? -eq 77 ] && skip_all "no huge page here (vm.nr_hugepages)"

record "$T/h.lz4" "$PROG" >"$T/out" 2>&1
is "$(cat "$T/out")" "PASS" "the program's results are unchanged"
"$TC" -a "$T/h.lz4" | awk '$1 == "file" && $4 ~ /^\/memfd:/ { print $4, $NF }' >"$T/got"
cat >"$T/want" <<'EOF2'
/memfd:huge fs=0x958458f6
/memfd:plain fs=0x1021994
EOF2
is_file "$T/got" "$T/want" "each memfd's FILE record names its file system"
"$V" -q --strict "$T/h.lz4" >"$T/k" 2>&1
is "$?:$(cat "$T/k")" "0:" "replayed --strict on this kernel"
"$V" -q --strict --target sim --kernel host "$T/h.lz4" >"$T/s" 2>&1
is "$?:$(cat "$T/s")" "0:" "replayed --strict in the simulator (host)"
# under the launcher (the program's own mmaps are still libvmrec's)
"$B/bin/vmrec" -o "$T/l.lz4" -- "$PROG" >"$T/out" 2>&1
is "$(cat "$T/out")" "PASS" "launched: the program's results are unchanged"
"$TC" -a "$T/l.lz4" | awk '$1 == "file" && $4 ~ /^\/memfd:/ { print $4, $NF }' >"$T/got"
is_file "$T/got" "$T/want" "launched: each memfd's FILE record names its file system"
done_testing

#!/bin/sh
# The recorder's own per-call questions - the PAGEMAP_SCAN before each
# release, the fault count that can stand in for it - are issued from the
# same exempt "syscall; ret" in libc as the recorded calls themselves, so
# the kernel never reads the thread's dispatch selector for them.  In a
# malloc1 loop that read cost ~2.7 us a release here (a recorded munmap
# with its scan: 19.8 us with the read, 16.4 without; docs/shim.md).
# strace -i gives the address each call was made from.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$P/malloc_free"
have_strace || skip_all "strace cannot trace here"

LD_PRELOAD=$LIB VMREC_OUT=$T/m.lz4 strace -f -qq -i -e trace=munmap,ioctl,getrusage \
	-o "$T/st" "$P/malloc_free" 20 >/dev/null
ok $? "malloc_free runs recorded under strace"
# the address of the recorded munmaps of the 128 MiB blocks
at=$(awk '/munmap\(0x[0-9a-f]+, 134217728\)/ { a = $2 } END { print a }' "$T/st")
like "$at" "[" "the recorded munmaps' address: $at"
scans=$(grep -c 'ioctl(.*0x66, 0x10' "$T/st")
ok "$([ "$scans" -ge 20 ]; echo $?)" "a PAGEMAP_SCAN before each release: $scans"
awk -v at="$at" '(/ioctl\(.*0x66, 0x10/ || /getrusage\(/) && $2 != at' "$T/st" >"$T/elsewhere"
is_file "$T/elsewhere" /dev/null "every scan and fault count is issued from $at"
done_testing

#!/bin/sh
# What one recording costs the vmrec launcher itself, in its own system
# calls (docs/shim-cost.md): the trace store is mapped once, by the
# launcher's main thread, and used by the drainer and the finisher alike;
# every mapping of it is MADV_RANDOM (records land anywhere in the file:
# a fault that read the pages around it would read them for nothing).
# The exit unmaps it, not a munmap of the whole window before.  The
# launcher is linked -static-pie: ld.so loads nothing for it.  It reads
# an image's /proc files in as few reads as the kernel allows: cmdline
# (and environ, status) in one, maps a page of lines a read and a read
# of 0, not through stdio's 1 KiB buffer.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec
need_built "$V"
have_strace || skip_all "strace cannot trace here"
cd "$T" || exit 1

# the launcher alone (-f would follow the program too, which the
# launcher could then not trace)
strace -qq -e signal=none -e trace=mmap,munmap,madvise -o L.txt "$V" -o t.lz4 -- /bin/true >/dev/null 2>&1
is "$?" 0 "/bin/true recorded under strace"
is "$(grep -c 'MAP_SHARED' L.txt)" 1 "the trace store is mapped once"
is "$(grep -c 'MADV_RANDOM' L.txt)" 1 "with no readahead of its file"
at=$(grep 'MAP_SHARED' L.txt | sed -n 's/.* = \(0x[0-9a-f]*\)$/\1/p')
[ -n "$at" ] && ! grep -q "^munmap($at," L.txt
ok $? "and left for the exit to unmap (at ${at:-?})"

strace -qq -y -e signal=none -e trace=read -o R.txt "$V" -o t.lz4 -- /bin/true >/dev/null 2>&1
is "$(grep -c '^read([0-9]*</proc/[0-9]*/cmdline>' R.txt)" 1 "the exec's cmdline: one read"
n=$(grep -c '^read([0-9]*</proc/[0-9]*/maps>' R.txt)
[ "$n" -le 2 ]
ok $? "its maps (under 4 KiB): one read and the read of 0 ($n)"

# the program's child shares the launcher's memory until its exec: none
# of it is copied for the child, nor torn down at its exec
strace -qq -e signal=none -e trace=clone,clone3,fork,vfork -o C.txt "$V" -o t.lz4 -- /bin/true \
	>/dev/null 2>&1
like "$(grep -v CLONE_THREAD C.txt | head -1)" "CLONE_VM" "the program's child is a clone(CLONE_VM)"

# the library by the name /proc gives it, from /proc/self/exe's
# directories (already without links): no readlink per path component
strace -qq -e signal=none -e trace=readlink -o K.txt "$V" -o t.lz4 -- /bin/true >/dev/null 2>&1
n=$(grep -c '^readlink("/[^p]' K.txt)
[ "$n" -le 2 ]
ok $? "the library's path: lib/ and the library asked if links, no more ($n)"
mkdir -p d/bin d/real e/bin e/lib e/real
cp "$V" d/bin/ && cp "$V" e/bin/ && cp "$B/lib/libvmrec.so" d/real/ &&
	cp "$B/lib/libvmrec.so" e/real/ && ln -s real d/lib && ln -s ../real/libvmrec.so e/lib/
for x in d e; do
	strace -f -qq -v -s 4096 -e signal=none -e trace=execve -o E.txt "$x/bin/vmrec" -o t.lz4 -- /bin/true \
		>/dev/null 2>&1
	like "$(grep -o 'LD_PRELOAD=[^"]*' E.txt)" "LD_PRELOAD=$(pwd -P)/$x/real/libvmrec.so" \
		"a linked library ($x) is preloaded by the name /proc gives it"
done
grep -q 'VMREC_STORE' E.txt && ! grep -q 'VMREC_TRAMPOLINE' E.txt
ok $? "a launcher that cannot trace: its program records as preloaded alone"

if carries_sanitizer "$V"; then
	ok 0 "a sanitizer build's launcher is dynamic (sanitizers cannot link statically)"
else
	readelf -l "$V" | grep -q 'INTERP'
	is "$?" 1 "the launcher has no program interpreter (static-pie)"
fi
done_testing

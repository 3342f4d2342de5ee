#!/bin/sh
# vma-calls: each call issue 34 added to the table (mbind,
# set_mempolicy_home_node, prctl's PR_SET_VMA, PR_SET_THP_DISABLE,
# PR_SET_MEMORY_MERGE and PR_SET_MDWE, process_madvise, ioctl's
# UFFDIO_REGISTER and UFFDIO_UNREGISTER, remap_file_pages,
# map_shadow_stack), made once on a range of its own: the program behaves
# as natively, every call is recorded with its result and printed as
# strace prints it, the ioctls and prctls the table has no row for pass
# unrecorded, and the trace replays --strict on this kernel (a feature it
# lacks, such as PR_SET_VMA_ANON_NAME without CONFIG_ANON_VMA_NAME, fails
# with the recorded errno).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$B/bin/vmtrace" "$B/bin/vmreplay" "$P/vma_calls"
have_strace || skip_all "strace cannot trace here"

native=$("$P/vma_calls")
recorded=$(record "$T/v.lz4" "$P/vma_calls")
is "$recorded" "$native" "the program's calls return what they return natively"
"$B/bin/vmtrace" check "$T/v.lz4" >"$T/check" 2>&1
is "$?" 0 "the trace follows the rules"

# strace's lines and the dump's, from the first call on: addresses
# (another run: mmap_base falls anywhere in 0x7xxxxxxxxxxx) and the
# column padding dropped; mbind's nodemask is
# strace's reading of memory the trace does not keep
NAMES='mbind|set_mempolicy_home_node|prctl|process_madvise|ioctl|remap_file_pages|map_shadow_stack|syscall_0x1c5'
norm() {
	sed -E 's/^[0-9]+ +//; s/0x7[0-9a-f]{11}\b/ADDR/g; s/ +=/ =/; s/^(mbind\([^,]*, [^,]*, [^,]*, )[^,]*/\1MASK/' |
	grep -E "^($NAMES)\("
}
strace -f -qq -e signal=none -o "$T/st" "$P/vma_calls" >/dev/null
# strace 6.1 has no name for map_shadow_stack (453): "syscall_0x1c5(...)"
norm <"$T/st" | grep -v -E 'TCGETS|UFFDIO_API|FIONREAD|PR_GET_THP_DISABLE' |
	sed -E 's/^syscall_0x1c5\(0, 0x1000, 0x1, .*\) =/map_shadow_stack(NULL, 4096, SHADOW_STACK_SET_TOKEN) =/' >"$T/want"
"$B/bin/vmtrace" dump "$T/v.lz4" | norm >"$T/got"
is "$(wc -l <"$T/want")" 11 "strace saw the 11 calls"
is_file "$T/got" "$T/want" "the trace has each with its result, printed as strace prints it"
is "$("$B/bin/vmtrace" dump "$T/v.lz4" | grep -c -E 'TCGETS|UFFDIO_API|FIONREAD|PR_GET_THP_DISABLE')" 0 \
	"other ioctls and prctls are not recorded"
is "$("$TC" -a "$T/v.lz4" | grep -c '^ranges ')" 5 \
	"RANGES records: the name, the iovec, the registration, the unregistration, the nodemask"
"$TC" -a "$T/v.lz4" | grep -B3 ' process_madvise ' | grep -c '^residency ' >"$T/res"
is "$(cat "$T/res")" 2 "process_madvise's two ranges (its pidfd is the process's own) have their residency asked"
like "$("$B/bin/vmtrace" dump "$T/v.lz4" | grep 'madvise(.*MADV_COLLAPSE')" "EINVAL" \
	"PR_SET_THP_DISABLE's effect is in the trace: MADV_COLLAPSE fails after it"

"$B/bin/vmreplay" --strict "$T/v.lz4" >"$T/replay" 2>&1
is "$?" 0 "vmreplay --strict on the kernel passes"
like "$(cat "$T/replay")" "result mismatches 0" "with no call's result differing"
done_testing

#!/bin/sh
# With --stacks, libunwind's own memory pools (mapped while unwinding, not
# recorded, and merged with each other) are counted as the recorder's: the
# exit checkpoint has the VMAs a strict replay of the trace reproduces.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$B/bin/vmreplay" "$B/bin/vmrec"
[ -e /usr/lib/x86_64-linux-gnu/libunwind.so.8 ] || skip_all "libunwind not installed"
carries_asan "$P/splits" && skip_all "test programs built with AddressSanitizer: a strict replay cannot rebuild their shadow mappings"

for prog in splits checkpoint_req threads_malloc; do
	"$B/bin/vmrec" -o "$T/$prog.lz4" --stacks=16 -- "$P/$prog" >/dev/null
	"$B/bin/vmreplay" -q --strict "$T/$prog.lz4" >"$T/$prog.out" 2>&1
	ok $? "$prog: a strict replay matches every checkpoint"
	is "$(grep fidelity "$T/$prog.out")" "" "$prog: no fidelity complaint"
done
done_testing

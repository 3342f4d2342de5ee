#!/bin/sh
# Under an address-space limit (ulimit -v) a recorded program gets as many
# mappings as natively, each recorded: the launcher then records the
# process alone (libvmrec maps nothing of its own), and the store's
# window is sized from the limit.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec
need_built "$V" "$P/as_limit" "$P/auxv_walk"
for kib in 65536 131072; do
	n=$(ulimit -v "$kib"; "$P/as_limit")
	r=$(ulimit -v "$kib"; "$V" -o "$T/a.lz4" -- "$P/as_limit")
	is "$r" "$n" "ulimit -v $kib: as many 1 MiB mappings as natively ($n of 200)"
	is "$("$TC" "$T/a.lz4" | grep -c ' mmap 0 0x100000 .* = 0x')" "$n" "ulimit -v $kib: each of them recorded"
	"$B/bin/vmtrace" check "$T/a.lz4" | grep -q ': OK: '; ok $? "ulimit -v $kib: the trace checks OK"
done
# the recorder stays out of such a process, its variables too
(ulimit -v 131072; "$P/auxv_walk") >"$T/n.out"
(ulimit -v 131072; "$V" -o "$T/e.lz4" -- "$P/auxv_walk") >"$T/r.out"
is_file "$T/r.out" "$T/n.out" "ulimit -v 131072: the environment and auxv as natively"
done_testing

#!/bin/sh
# Residency records fault the same pages in before the next call, so the
# anon_vma state matches: a fork child whose heap was written before the
# fork cannot expand it with brk (a new heap VMA), an untouched one can.
# The initial map's private writable VMAs count as written (a running image
# wrote them, as the simulator assumes), so the heap here starts in the
# trace.  Both back ends agree.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

trace() {
	cat <<'EOF2'
process 100 1 0
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x10001000 0x10003000 rw-
vma 0x30000000 0x30021000 rw- [stack]
vma 0x40000000 0x40002000 r-x [vdso]
vma 0x50000000 0x50001000 rw- rec
end
ck 100 1 5 1
ev 100 brk 0 0 0 0 0 0 = 0x10100000
ev 100 brk 0x10102000 0 0 0 0 0 = 0x10102000
EOF2
	[ "$1" = touched ] && echo "res 100 0x10100000 2 02"
	cat <<'EOF2'
ev 100 fork 0 0 0 0 0 0 = 101
process 101 100 0
ev 101 brk 0x10103000 0 0 0 0 0 = 0x10103000
ev 101 exit_group 0 0 0 0 0 0 = 0 noreturn
ev 100 exit_group 0 0 0 0 0 0 = 0 noreturn
EOF2
}
trace touched | mk touched
trace untouched | mk untouched

for target in kernel sim; do
	"$V" -q --target $target --per-event --json "$T/t.json" "$T/touched.vmt"
	per_event "$T/t.json" | grep '^101 brk' >"$T/got"
	echo "101 brk new 6 ok" >"$T/want"
	is_file "$T/got" "$T/want" "$target: faulted heap before fork: the child's brk makes a new VMA"

	"$V" -q --target $target --per-event --json "$T/u.json" "$T/untouched.vmt"
	per_event "$T/u.json" | grep '^101 brk' >"$T/got"
	echo "101 brk expand_prev 5 ok" >"$T/want"
	is_file "$T/got" "$T/want" "$target: untouched heap: the child's brk expands it"
done
done_testing

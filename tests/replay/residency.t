#!/bin/sh
# Residency records fault the same pages in before the next call, so the
# anon_vma state matches: a fork child whose heap was written before the
# fork cannot expand it with brk (a new heap VMA), an untouched one can.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

trace() {
	base_map
	[ "$1" = touched ] && echo "res 100 0x10100000 2 03"
	cat <<'EOF2'
ev 100 brk 0 0 0 0 0 0 = 0x10102000
ev 100 fork 0 0 0 0 0 0 = 101
process 101 100 0
ev 101 brk 0x10103000 0 0 0 0 0 = 0x10103000
ev 101 exit_group 0 0 0 0 0 0 = 0 noreturn
ev 100 exit_group 0 0 0 0 0 0 = 0 noreturn
EOF2
}
trace touched | mk touched
trace untouched | mk untouched

"$V" -q --per-event --json "$T/t.json" "$T/touched.vmt"
per_event "$T/t.json" | grep '^101 brk' >"$T/got"
echo "101 brk new 6 ok" >"$T/want"
is_file "$T/got" "$T/want" "faulted heap before fork: the child's brk makes a new VMA"

"$V" -q --per-event --json "$T/u.json" "$T/untouched.vmt"
per_event "$T/u.json" | grep '^101 brk' >"$T/got"
echo "101 brk expand_prev 5 ok" >"$T/want"
is_file "$T/got" "$T/want" "untouched heap: the child's brk expands it"
done_testing

#!/bin/sh
# vmtrace stats, top, dump and check read traces without events (or
# without processes) like any other: exit 0, nothing on stderr.  Under
# make asan, stats on the old tree was aborted by UBSan here (qsort of a
# NULL table).
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace MK=$B/tests/replay/progs/mktrace
need_built "$V" "$MK"

# traces without events, and without processes: nothing to sort, nothing
# to count, no complaint (under make asan a sanitizer would say so)
printf '' | "$MK" "$T/empty.vmt"
printf 'process 100 1 0\n' | "$MK" "$T/proc.vmt"
for f in empty proc; do
	for cmd in "stats" "stats --json" "top" "dump" "check"; do
		"$V" $cmd "$T/$f.vmt" >"$T/out" 2>"$T/err"
		is "$?:$(cat "$T/err")" "0:" "$cmd on a trace without events ($f): exit 0, nothing on stderr"
	done
done
"$V" stats "$T/empty.vmt" | grep -q "^events: *0 "
ok $? "stats counts no events"
done_testing

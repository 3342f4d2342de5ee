#!/bin/sh
# Every tool that writes a file refuses an unwritable output with a one-line
# error naming the file and the system's reason, a non-zero exit, and writes
# nothing else.
. "$(dirname "$0")/../lib.sh"
need_built "$B/bin/vmreplay" "$B/bin/vmtrace" "$B/bin/vmreport"
BAD=$T/missing-dir/out
SAMPLE=$S/traces/samples/python3-import-json.lz4

# expect_refusal NAME CMD... : non-zero exit, exactly one stderr line naming
# $BAD and why (its directory does not exist)
expect_refusal() {
	name=$1
	shift
	"$@" >"$T/stdout" 2>"$T/stderr"
	st=$?
	[ $st -ne 0 ]
	ok $? "$name: non-zero exit ($st)"
	is "$(wc -l <"$T/stderr" | tr -d ' ')" 1 "$name: one line on stderr"
	grep -q "missing-dir/out" "$T/stderr"
	ok $? "$name: the message names the file: $(cat "$T/stderr")"
	grep -q "No such file or directory" "$T/stderr"
	ok $? "$name: and the reason"
}

expect_refusal "vmreplay --json" "$B/bin/vmreplay" -q --json "$BAD" "$SAMPLE"
expect_refusal "vmtrace synth -o" "$B/bin/vmtrace" synth brk_test --iterations 2 -o "$BAD"
printf '1 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000\n' >"$T/s.log"
expect_refusal "vmtrace import-strace -o" "$B/bin/vmtrace" import-strace "$T/s.log" -o "$BAD"
expect_refusal "vmreport -o" "$B/bin/vmreport" -o "$BAD" \
	"$S/tests/report/data/brk-6.1.json" "$S/tests/report/data/brk-6.8.json"
[ ! -e "$T/missing-dir" ]
ok $? "nothing was created"
done_testing

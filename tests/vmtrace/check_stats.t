#!/bin/sh
# vmtrace check, stats and dump on whole, truncated, empty, foreign and
# missing files: the one-line messages and the exit statuses.
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace
"$V" synth brk_test --iterations 2000 -o "$T/good" || exit 1

out=$("$V" check "$T/good")
ok $? "check exits 0 on a whole trace"
echo "$out" | grep -qE "^$T/good: OK: 34003 events, 1 processes, [0-9]+ records, [0-9]+ chunks, [0-9]+ bytes\$"
ok $? "check prints one OK line with the counts: $out"

size=$(wc -c <"$T/good")
chunks=$("$V" stats --json "$T/good" | sed -n 's/^  "chunks": \([0-9]*\),$/\1/p')
[ "$chunks" -ge 2 ]
ok $? "the test trace has several chunks ($chunks)"
head -c $((size - 100)) "$T/good" >"$T/cut"
out=$("$V" check "$T/cut")
is "$?" 1 "check exits 1 on a truncated trace"
echo "$out" | grep -qE "^$T/cut: truncated: [0-9]+ bytes lost after [0-9]+ complete chunks? \([0-9]+ events readable\)\$"
ok $? "check says how many bytes were lost: $out"

"$V" stats "$T/cut" >"$T/stats"
ok $? "stats reads what a truncated trace holds"
grep -qE '^truncated: +[0-9]+ bytes lost' "$T/stats"
ok $? "stats reports the lost bytes"
"$V" stats --json "$T/cut" | grep -q '"truncated": true'
ok $? "stats --json reports truncation"
"$V" dump "$T/cut" >"$T/dump" 2>"$T/err"
is "$?" 1 "dump exits 1 on a truncated trace"
[ -s "$T/dump" ] && grep -q "truncated" "$T/err"
ok $? "after printing the complete chunks' events"

: >"$T/empty"
printf 'hello, world\n' >"$T/foreign"
for f in empty foreign missing; do
	for cmd in check stats dump; do
		"$V" $cmd "$T/$f" >"$T/out" 2>"$T/err"
		st=$?
		msg=$(cat "$T/out" "$T/err")
		[ "$st" = 1 ] && [ "$(echo "$msg" | wc -l)" = 1 ] && echo "$msg" | grep -qF "$T/$f"
		ok $? "$cmd on a $f file: exit 1, one line naming it: $msg"
	done
done

"$V" stats "$T/good" >"$T/stats"
grep -qE '^events: +34003 \(0 failed\)' "$T/stats"
ok $? "stats counts events"
grep -qE '^brk +34002 +0 +1400 +1400$' "$T/stats"
ok $? "stats has a row per system call with mean and max latency"
grep -qE '^checkpoints: start 1 exit 1 \(VMAs 24\.\.24\)$' "$T/stats"
ok $? "stats lists the checkpoints"
grep -qE '^4242 +0 +1 +34003  /usr/local/bin/brk_test$' "$T/stats"
ok $? "stats has a row per process: pid, ppid, threads, events, program"
"$V" stats --json "$T/good" >"$T/json"
grep -q '^  "events": 34003,$' "$T/json" && grep -q '^    "exit_group": {"count": 1, "errors": 0, "latency_ns": 0, "max_latency_ns": 0}' "$T/json"
ok $? "stats --json has the same counts"

"$V" bogus >/dev/null 2>&1
is "$?" 2 "an unknown command is a usage error"
"$V" --help | grep -q "vmtrace import-strace"
ok $? "--help lists the commands"
done_testing

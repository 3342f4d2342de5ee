#!/bin/sh
# Deaths the recorder does not see: every call completed before is in the
# trace (the records are in the shared store as soon as they are written)
# and the process's END record says how it ended: vmrec reaps the tree, so
# it knows the signal; a process reaped by its own parent "vanished".
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace
need_built "$V" "$VT" "$P/fatal_after"

five() { "$TC" "$1" | grep -c ' mmap 0 0x[1-5]000 0x1 0x22 '; }

# native: the status each mode dies with
for m in kill dfl resethand abort blocked; do
	"$P/fatal_after" $m >/dev/null 2>&1; native=$?
	"$V" -o "$T/$m.lz4" -- "$P/fatal_after" $m >/dev/null 2>"$T/$m.err"; st=$?
	sig=$((native - 128))
	is "$st" "$native" "$m: status as native (signal $sig)"
	is "$(five "$T/$m.lz4")" 5 "$m: the five mmaps before the death are in the trace"
	out=$("$VT" check "$T/$m.lz4")
	like "$out" "OK: " "$m: check OK"
	like "$out" ": killed by signal $sig" "$m: check names the process killed by signal $sig"
	like "$("$VT" stats "$T/$m.lz4")" "(signal $sig)" "$m: stats names it too"
done

# a child SIGKILLed and reaped by its parent: its calls are there, it vanished
"$V" -o "$T/child.lz4" -- "$P/fatal_after" killchild >"$T/out"; st=$?
is "$st:$(cat "$T/out")" "0:child killed" "killchild: runs as native"
is "$("$TC" "$T/child.lz4" | grep -c ' mmap 0 0x7000 0x1 0x22 ')" 1 "killchild: the child's mmap is in the trace"
out=$("$VT" check "$T/child.lz4")
like "$out" "OK: " "killchild: check OK"
like "$out" "vanished" "killchild: check says the child vanished"

# by hand, a handler set back to SIG_DFL is the recorder's again: the
# process says how it died and, the last to leave, finishes the trace
for m in dfl abort; do
	"$P/fatal_after" $m >/dev/null 2>&1; native=$?
	record "$T/h$m.lz4" "$P/fatal_after" $m 2>/dev/null; st=$?
	is "$st" "$native" "by hand, $m: status as native"
	like "$("$VT" check "$T/h$m.lz4")" ": killed by signal $((native - 128))" \
		"by hand, $m: the trace is finished and names the signal"
done

# without the launcher nobody outlives the tree: the store stays, and
# vmrec --finish makes the trace of it
record "$T/hand.lz4" "$P/fatal_after" kill 2>/dev/null
store=$(ls "$T"/hand.lz4.vmrec-store.* 2>/dev/null | head -1)
ok $([ -n "$store" ] && [ ! -e "$T/hand.lz4" ]; echo $?) "by hand: the store is left, no trace"
"$V" --finish "$store"; ok $? "vmrec --finish STORE"
is "$(five "$T/hand.lz4")" 5 "by hand: the five mmaps are in the finished trace"
like "$("$VT" check "$T/hand.lz4")" "vanished" "by hand: check says the process vanished"
ok $([ ! -e "$store" ]; echo $?) "the store is gone once finished"
is "$(lz4 -dc "$T/hand.lz4" 2>&1 >/dev/null)" "" "lz4 -dc reads the finished trace"
done_testing

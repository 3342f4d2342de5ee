#!/bin/sh
# vmtrace check and stats compare the seqs no record holds with what the
# ENDs count lost: more missing than lost is a record the recorder lost
# without a word, and both say so.  A trace whose seqs all hold a record
# says nothing of it.
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace
MK=$B/tests/replay/progs/mktrace
need_built "$V" "$MK"

script() {   # the second mmap's seq: $1; its END's lost: $2
	printf 'process 10 1 0\n'
	printf 'ev 10 mmap 0 0x1000 3 0x22 -1 0 = 0x7f0000000000\n'
	printf 'ev 10 munmap 0x7f0000000000 0x1000 0 0 0 0 = 0\n'
	printf 'ev 10 mmap 0 0x1000 3 0x22 -1 0 = 0x7f0000000000 seq=%s\n' "$1"
	[ -n "$2" ] && printf 'fin 10 1 0 %s\n' "$2"
}
script 4 0 | "$MK" "$T/whole.vmt" && script 6 0 | "$MK" "$T/gap.vmt" &&
	script 6 2 | "$MK" "$T/counted.vmt" && script 6 | "$MK" "$T/made.vmt" || exit 1

out=$("$V" check "$T/gap.vmt")
is "$?" 0 "check: a trace with a silent loss still reads whole"
like "$out" "silent loss: 2 seqs no record holds \(the first 4\), the ENDs count 0 records lost" \
	"check says the seqs no record holds and what the ENDs count"
out=$("$V" check "$T/whole.vmt")
is "$(echo "$out" | grep -c 'silent loss')" 0 "check: nothing said where every seq holds a record ($out)"

like "$("$V" stats "$T/gap.vmt")" "silent loss: 2 seqs no record holds, the ENDs count 0 records lost" \
	"stats says it too"
like "$("$V" stats --json "$T/gap.vmt")" '"missing_seqs": 2,' "stats --json: missing_seqs"
is "$("$V" stats "$T/whole.vmt" | grep -c 'silent loss')" 0 "stats: nothing said of a whole trace"
like "$("$V" stats --json "$T/whole.vmt")" '"missing_seqs": 0,' "stats --json: none missing"

# the ENDs count them: no word lost
is "$("$V" check "$T/counted.vmt" | grep -c 'silent loss')" 0 "check: the seqs missing are the ENDs' lost"
is "$("$V" stats "$T/counted.vmt" | grep -c 'silent loss')" 0 "stats: the same"
# a trace with no END at all is a tool's, not a recording
is "$("$V" check "$T/made.vmt" | grep -c 'silent loss')" 0 "check: a trace with no END is not asked"
done_testing

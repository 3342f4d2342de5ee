#!/bin/sh
# vmtrace dump applies the trace rules as vmtrace check does: on a trace
# that breaks one it prints every event it can, then the rule check
# names (same words, same record) on stderr, and exits 1.
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace MK=$B/tests/replay/progs/mktrace
need_built "$V" "$MK"

good='process 100 1 0
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x7f0000000000'
# NAME|the lines after the good ones
while IFS='|' read -r name lines; do
	[ -n "$name" ] || continue
	printf '%s\n%b\n' "$good" "$lines" | "$MK" "$T/$name.vmt" || { ok 1 "$name: mktrace"; continue; }
	want=$("$V" check "$T/$name.vmt")
	[ $? -eq 1 ]
	ok $? "$name: check rejects it: $want"
	"$V" dump "$T/$name.vmt" >"$T/out" 2>"$T/err"
	is "$?" 1 "$name: dump exits 1"
	is "$(cat "$T/err")" "vmtrace: $want" "$name: and says what check says"
	grep -q '^100   mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000$' "$T/out"
	ok $? "$name: after printing the events before the damage"
done <<'LIST'
errno|ev 100 munmap 0x7f0000000000 0x1000 0 0 0 0 = -1 err=5000
no-process|ev 200 munmap 0x7f0000000000 0x1000 0 0 0 0 = 0
checkpoint|ck 100 99 3 1
unsorted-map|map 100\nvma 0x20000000 0x20001000 r--\nvma 0x10000000 0x10001000 r--\nend
missing-file|ev 100 mmap 0 0x1000 1 0x2 3 0 = 0x7f0000100000 file=7
LIST

done_testing

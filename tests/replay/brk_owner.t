#!/bin/sh
# The replayer's own memory never comes from brk (jemalloc with dss
# disabled): replaying a trace without brk events, no process of the
# replay ever moves its break; with brk events only the replayed ones do.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
command -v strace >/dev/null || skip_all "strace not installed"

{ base_map | grep -v heap | sed 's/^ck 100 1 6 1/ck 100 1 5 1/'; cat <<'EOF2'
ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000
ev 100 fork 0 0 0 0 0 0 = 101
process 101 100 0
ev 101 munmap 0x20000000 0x1000 0 0 0 0 = 0
ck 101 3 6 1
ck 100 3 6 1
EOF2
} | mk nobrk

ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=brk -o "$T/strace" "$V" -q --strict --per-event --json "$T/o.json" "$T/nobrk.vmt"
ok $? "replay without brk events"
is "$(grep -v 'brk(NULL)' "$T/strace" | grep -c 'brk(')" 0 "no process of the replay moved its break"
grep -q 'brk(NULL)' "$T/strace"
ok $? "strace saw the brk calls (the check above can fail)"

{ base_map; cat <<'EOF2'
ev 100 brk 0 0 0 0 0 0 = 0x10102000
ev 100 brk 0x10105000 0 0 0 0 0 = 0x10105000
ev 100 brk 0x10103000 0 0 0 0 0 = 0x10103000
ck 100 4 6 1
EOF2
} | mk withbrk
ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=brk -o "$T/strace" "$V" -q --strict "$T/withbrk.vmt"
ok $? "brk sequence replays with the recorded VMA outcomes"
# the stand-in heap (2 pages) and the three replayed calls that move the break
is "$(grep -v 'brk(NULL)' "$T/strace" | grep -c 'brk(')" 3 "only the replay moved the break: heap stand-in and 2 recorded moves"
done_testing

#!/bin/sh
# The progress line: on stderr for runs over a second, only when stderr is
# a terminal and without -q.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000
ev 100 munmap 0x20000000 0x3000 0 0 0 0 = 0
EOF2
} | mk p

"$V" --duration 1.3 "$T/p.vmt" >/dev/null 2>"$T/err"
is "$(cat "$T/err")" "" "stderr not a terminal: no progress line"
command -v script >/dev/null || { done_testing; exit; }
script -qc "\"$V\" --duration 1.3 \"$T/p.vmt\" >/dev/null" /dev/null | tr '\r' '\n' >"$T/tty"
grep -aq '^vmreplay: run 1/1, loop [0-9]*, 2/2 events, 1\.[0-9] s' "$T/tty"
ok $? "on a terminal: the progress line ($(grep -a 'run 1' "$T/tty" | tail -1 | tr -d '\033'))"
script -qc "\"$V\" -q --duration 1.3 \"$T/p.vmt\" >/dev/null" /dev/null | tr '\r' '\n' >"$T/tty"
is "$(grep -ac 'run 1' "$T/tty")" 0 "-q: no progress line"
done_testing

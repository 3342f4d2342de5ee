#!/bin/sh
# clone3's struct (child_tid, parent_tid, tls) and clone's registers
# (parent_tid, child_tidptr) are recorded as the kernel received them:
# `vmtrace dump` prints the clone and clone3 lines strace prints, addresses
# numbered in order of appearance and pids dropped.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
have_strace || skip_all "strace not usable here"

norm() {
	python3 -c '
import re, sys
seen = {}
def addr(m):
    return seen.setdefault(m.group(0), "A%d" % len(seen))
for line in sys.stdin:
    if "clone" not in line:
        continue
    line = re.sub(r"^\d+\s+", "", line)
    line = re.sub(r"\[\d+\]", "[PID]", line)
    line = re.sub(r"= \d+$", "= PID", line.rstrip())
    print(re.sub(r"0x[0-9a-f]+", addr, line))'
}

strace -f -qq -e trace=clone,clone3 -e signal=none -o "$T/st" "$P/clone_args"
record "$T/run.lz4" "$P/clone_args"
"$B/bin/vmtrace" dump "$T/run.lz4" | norm >"$T/got"
norm <"$T/st" >"$T/want"
is "$(wc -l <"$T/want")" 2 "strace saw one clone3 and one clone"
is_file "$T/got" "$T/want" "clone3 and clone arguments as strace prints them"
done_testing

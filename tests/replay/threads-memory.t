#!/bin/sh
# vmreplay --threads holds a window of what grows with the trace's events,
# not all of it: its dependency lists (replay/deps.h) and the trace's
# arrays move into files past 8 MiB, the sweep that builds the lists and
# the lanes that replay them drop what they left behind.  Two threads of
# one process, each brk waiting for the other's last (600,000 events,
# ~115 MB of arrays and lists): before, the driver and the replayer held
# all of it (~130 MB); now a few tens of MB.  Every replay here runs under
# --mem-limit, so a failure stops at the budget, never at the machine; the
# results with the arrays in files are those with them in memory.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
TR=$B/bin/vmtrace
need_built "$TR"

"$TR" synth brk1 --mode thread --tasks 2 --iterations 150000 -o "$T/big.vmt" >/dev/null ||
	fail_all "vmtrace synth failed"
"$TR" synth brk1 --mode thread --tasks 2 --iterations 40000 -o "$T/mid.vmt" >/dev/null ||
	fail_all "vmtrace synth failed"
mkdir "$T/tmp"

# peak KB CMD...: the peak resident KB of CMD's process tree, or "failed"
# and its exit status
peak() {
	"$PYTHON" - "$@" <<'EOF'
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.returncode == 0
      else "failed (exit %d)" % r.returncode)
EOF
}

complete() {
	"$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["complete"], d.get("incomplete_reason", ""))' "$1"
}

k=$(TMPDIR=$T/tmp peak "$V" -q --threads --mem-limit 96M --json "$T/big.json" "$T/big.vmt")
like "$k" '^[0-9]+$' "600,000 events in 2 threads replay with --threads within a budget of 96 MB ($k)"
is "$(complete "$T/big.json" 2>&1)" "True " "the results say complete"
if carries_sanitizer "$V"; then
	skip "the sanitizers' memory is not the replay's"
else
	[ "$k" -lt 64000 ] 2>/dev/null
	ok $? "--threads: the replay's peak is < 64 MB (peak $k KB)"
fi

# the same results with the arrays in files (dropped and faulted in again
# by the lanes) and in memory
TMPDIR=$T/tmp "$V" -q --threads --mem-limit 256M --per-event --json "$T/file.json" "$T/mid.vmt" 2>"$T/err"
is "$?" 0 "--threads replays with its arrays in files"
VMREPLAY_NO_SPILL=1 TMPDIR=$T/tmp "$V" -q --threads --mem-limit 256M --per-event --json "$T/anon.json" \
	"$T/mid.vmt" 2>>"$T/err"
is "$?" 0 "--threads replays with its arrays in memory"
is "$(per_event "$T/file.json" | md5sum)" "$(per_event "$T/anon.json" | md5sum)" \
   "--threads: the same outcomes and VMA counts either way"
is "$(cat "$T/err")" "" "nothing said on stderr"
is "$(ls -A "$T/tmp")" "" "no file left in \$TMPDIR"
done_testing

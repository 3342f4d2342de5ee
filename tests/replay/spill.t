#!/bin/sh
# The arrays that grow with events (replay/spill.h) move into files under
# $TMPDIR past 8 MiB and the replay keeps a window of them resident: a
# trace of 10^6 events (~190 MB of them) replays in the simulator in far
# less, and gives the same results as with no usable $TMPDIR (anonymous
# memory, all resident: VMREPLAY_NO_SPILL), on both targets, over two
# loops (the results are cleared in the file between them).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
TR=$B/bin/vmtrace
need_built "$TR"

"$TR" synth brk1 --tasks 1 --iterations 500000 -o "$T/big.vmt" >/dev/null ||
	fail_all "vmtrace synth failed"
"$TR" synth brk1 --tasks 1 --iterations 60000 -o "$T/mid.vmt" >/dev/null ||
	fail_all "vmtrace synth failed"
mkdir "$T/tmp"

# peak KB CMD...: the peak resident KB of CMD's process tree, or "failed"
peak() {
	"$PYTHON" - "$@" <<'EOF'
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if r.returncode == 0 else "failed")
EOF
}

# same A B: the results agree but for what timing and pids change
same() {
	"$PYTHON" - "$1" "$2" <<'EOF'
import json, re, sys
timing = re.compile(r"latency|per_sec|_ns|elapsed|mem_peak")
def load(p):
    d = json.load(open(p))
    m = {k: v for k, v in d["metrics"].items() if not timing.search(k)}
    ev = [(e["i"], e["op"], e["outcome"], e["vma_count"], e["errno"], e["mismatch"],
           None if e["op"] in ("fork", "vfork", "clone", "clone3") else e["result"])
          for e in d.get("per_event", [])]
    return m, ev, d["complete"]
a, b = load(sys.argv[1]), load(sys.argv[2])
print("same" if a == b else "differ: %s" % [k for k in a[0] if a[0].get(k) != b[0].get(k)][:5])
EOF
}

k=$(TMPDIR=$T/tmp peak "$V" -q --target sim "$T/big.vmt")
if carries_sanitizer "$V"; then
	skip "the sanitizers' memory is not the replay's"
else
	[ "$k" != failed ] && [ "$k" -lt 100000 ]
	ok $? \
	   "10^6 events (~190 MB of arrays) replay in the simulator in < 100 MB (peak $k KB)"
fi

for target in sim kernel; do
	TMPDIR=$T/tmp "$V" -q --target $target --loop 2 --per-event --json "$T/file.json" "$T/mid.vmt" 2>"$T/err"
	is "$?" 0 "$target: replays with its arrays in files"
	VMREPLAY_NO_SPILL=1 TMPDIR=$T/tmp "$V" -q --target $target --loop 2 --per-event --json "$T/anon.json" \
		"$T/mid.vmt" 2>>"$T/err"
	is "$?" 0 "$target: replays with its arrays in memory"
	is "$(same "$T/file.json" "$T/anon.json")" same "$target: the same results either way"
done
is "$(cat "$T/err")" "" "nothing said on stderr"
is "$(ls -A "$T/tmp")" "" "no file left in \$TMPDIR"
done_testing

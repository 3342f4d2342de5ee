#!/bin/sh
# report-aa.sh - vmreport's false flags on this machine today: one batch of
# 12 replays of a synthesised thread churn, split into two halves twenty
# ways (tests/report/split-runs.py: even/odd, then one run of each pair at
# random), each pair compared as two kernels would be.  Nothing changed
# between the halves, so every flag is noise; the bound docs/reading-flags.md
# gives is at most one over the twenty.  A measurement, not an assertion:
# on this shared machine spells of interference make halves differ (in CI
# and in full make check runs, two or more flags in a few batches of ten),
# which is why tests/report/aa.t checks the bound on fixed batches only.
set -e
S=${VMREC_SRC:-$(cd "$(dirname "$0")/../.." && pwd)}
B=${VMREC_BUILD:-$S/build}
SPLITS=20 BATCHES=${BATCHES:-3}
for t in vmtrace vmreplay vmreport; do
	[ -x "$B/bin/$t" ] || { echo "report-aa: $B/bin/$t is missing: run make" >&2; exit 1; }
done
T=$(mktemp -d "${TMPDIR:-/tmp}/vmrec-bench-aa.XXXXXX")
trap 'rm -rf "$T"' EXIT
"$B/bin/vmtrace" synth pthread --iterations 20 -o "$T/pthread.lz4" >/dev/null
echo "report-aa: A/A, $BATCHES batches of 12 replays of vmtrace synth pthread, $SPLITS splits each (bound: 1 flag per batch)"
b=0
while [ "$b" -lt "$BATCHES" ]; do
	"$B/bin/vmreplay" -q --repeat 12 --json "$T/live.json" "$T/pthread.lz4"
	rm -rf "$T/s" && mkdir "$T/s"
	python3 "$S/tests/report/split-runs.py" "$T/live.json" "$T/s" "$SPLITS"
	k=0
	while [ "$k" -lt "$SPLITS" ]; do
		"$B/bin/vmreport" --all -f json "$T/s/a-$k.json" "$T/s/b-$k.json" >"$T/s/r-$k.json"
		k=$((k + 1))
	done
	python3 - "$T/s" "$SPLITS" "$b" <<'PY'
import json, sys
flags = []
for k in range(int(sys.argv[2])):
    d = json.load(open("%s/r-%d.json" % (sys.argv[1], k)))
    for m in d["metrics"]:
        c = m["cells"][1]
        if c["significant"]:
            flags.append("%s %+.1f%%" % (m["name"], c["change_pct"]))
print("  batch %s: %d flagged%s" % (sys.argv[3], len(flags),
      (": " + "; ".join(flags[:4]) + (" ..." if len(flags) > 4 else "")) if flags else ""))
PY
	b=$((b + 1))
done

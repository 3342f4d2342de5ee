#!/bin/sh
# A/A: one batch of replays split into two halves, twenty ways (even/odd
# runs, then one run of each consecutive pair at random), compared as two
# kernels would be.  Nothing changed between the halves, so at most one
# metric may be flagged over the twenty comparisons (main flagged 143-186).
# Real data: two fixed batches (tests/report/data/README.md says where they
# came from; deterministic).  A live batch made on this machine is a
# measurement, not a test: spells of interference on a shared machine make
# a batch's halves differ (CI saw it twice), so it is tests/bench/report-aa.sh
# in make bench.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data
SPLITS=20

# aa NAME RESULTS : the twenty comparisons of RESULTS' halves
aa() {
	rm -rf "${T:?}/$1"
	mkdir -p "$T/$1"
	python3 tests/report/split-runs.py "$2" "$T/$1" "$SPLITS"
	ok $? "$1: split into $SPLITS pairs of halves"
	k=0 bad=0
	while [ "$k" -lt "$SPLITS" ]; do
		"$R" --all -f json "$T/$1/a-$k.json" "$T/$1/b-$k.json" >"$T/$1/r-$k.json" 2>>"$T/$1/err" || bad=1
		k=$((k + 1))
	done
	is "$bad" 0 "$1: vmreport compares every pair"
	python3 - "$T/$1" "$SPLITS" >"$T/$1/count" <<'PY'
import json, sys
flags, tested = [], 0
for k in range(int(sys.argv[2])):
    d = json.load(open("%s/r-%d.json" % (sys.argv[1], k)))
    for m in d["metrics"]:
        c = m["cells"][1]
        tested += c.get("test", "welch" if c["p"] is not None else None) == "welch"
        if c["significant"]:
            flags.append("%s %+.1f%% %s" % (m["name"], c["change_pct"], c.get("q", c["p"])))
print(len(flags), tested)
print("; ".join(flags[:8]) + (" ..." if len(flags) > 8 else ""))
PY
	read -r nflags ntested <"$T/$1/count"
	ok "$([ "${ntested:-0}" -ge $((SPLITS * 20)) ]; echo $?)" "$1: Welch's test ran on the timings of every comparison ($ntested cells)"
	[ "${nflags:-99}" -le 1 ] || diag "$(sed -n 2p "$T/$1/count")"
}
# within_aa NAME : the bound, as a test
within_aa() {
	ok "$([ "${nflags:-99}" -le 1 ]; echo $?)" "$1: at most one metric flagged in $SPLITS A/A comparisons (flagged: ${nflags:-?})"
}

for name in python3-threads pthread; do
	aa "$name" "$D/aa-$name-12.json"
	within_aa "$name"
	# the first six runs against the last six: these batches kept their pace
	python3 tests/report/split-runs.py "$D/aa-$name-12.json" "$T/$name" first &&
		"$R" -f json "$T/$name/a-first.json" "$T/$name/b-first.json" >"$T/$name/first.json"
	is "$(grep -c '"significant": true' "$T/$name/first.json")" 0 "$name: first half against the second: no flag"
done

done_testing

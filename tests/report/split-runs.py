#!/usr/bin/env python3
"""split-runs.py RESULTS OUTDIR SPLITS: writes OUTDIR/a-K.json and
OUTDIR/b-K.json for K in 0..SPLITS-1, two halves of RESULTS' runs.  Split 0
takes the even runs and the odd ones; every other split takes one run of
each consecutive pair at random (seeded), so both halves span the batch
evenly, as make bench alternates A and B.  Halves keep run order.
split-runs.py RESULTS OUTDIR first: OUTDIR/a-first.json, b-first.json, the
first and the second half.  The A/A tests' one source of halves."""
import json, random, sys
src, out, how = sys.argv[1], sys.argv[2], sys.argv[3]
d = json.load(open(src))
runs = d["runs"]
def write(name, idx):
    h = dict(d)
    h["metrics"] = {m: [v[i] for i in idx] for m, v in d["metrics"].items()}
    h["runs"] = len(idx)
    with open("%s/%s.json" % (out, name), "w") as f:
        json.dump(h, f)
if how == "first":
    write("a-first", range(runs // 2))
    write("b-first", range(runs // 2, runs))
    sys.exit(0)
rng, seen = random.Random(16), set()
for k in range(int(how)):
    a = list(range(0, runs, 2))
    while k and tuple(a) in seen:
        a = [p + rng.randrange(2) for p in range(0, runs - 1, 2)]
    seen.add(tuple(a))
    write("a-%d" % k, a)
    write("b-%d" % k, [i for i in range(runs) if i not in a])

#!/bin/sh
# When a change counts: Welch's t-test on the runs, its p-values adjusted
# over the table (Benjamini-Hochberg, q <= 0.01) and a minimum effect (3%
# for timings, 1% for counts); no variance on either side: exact.  Welch's
# p and the adjustment are checked against an independent computation, and
# the direction of each kind of metric.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data

# NAME|FILES|METRIC|COLUMN|WANT ("significant verdict" of that column)
cat >"$T/cases" <<'LIST'
2 runs a side, 14% apart, each side within 0.1%: a regression|sig-2runs-a sig-2runs-b|vmreplay.brk.ops_per_sec|1|true regression
5 runs a side, overlapping: not flagged|sig-overlap-a sig-overlap-b|vmreplay.brk.ops_per_sec|1|false same
4 runs, one far off: the mean moves -5.7%, the test sees noise: not flagged|sig-outlier-a sig-outlier-b|vmreplay.brk.ops_per_sec|1|false same
separated runs, means 0.5% apart: below the 3% minimum effect|sig-small-a sig-small-b|vmreplay.brk.ops_per_sec|1|false same
ops/s down: regression|brk-6.1 brk-6.8|vmreplay.brk.ops_per_sec|1|true regression
ops/s up: improvement|brk-6.1 brk-6.12|vmreplay.brk.ops_per_sec|1|true improvement
latency up: regression|brk-6.1 brk-6.8|vmreplay.brk.latency_ns.p50|1|true regression
latency down: improvement|brk-6.1 brk-6.12|vmreplay.brk.latency_ns.p50|1|true improvement
more VMAs, the same in every run: changed (exact, no judgement)|brk-6.1 brk-6.8|vmreplay.vma_count.final|1|true changed
fewer VMAs, simulator: changed (exact)|churn-sim-6.1 churn-sim-6.8|vmreplay.vma_count.final|1|true changed
merge outcomes: changed, no direction|brk-6.1 brk-6.8|vmreplay.merge.new|1|true changed
unchanged mmap: same|brk-6.1 brk-6.8|vmreplay.mmap.ops_per_sec|1|false same
third column against the first, not the second|brk-6.1 brk-6.8 brk-6.12|vmreplay.brk.ops_per_sec|2|true improvement
simulator against simulator, one run each: any difference counts (exact)|churn-sim-6.1 churn-sim-6.8|vmreplay.merge.failed|1|true changed
timing of a qemu-tcg run: never flagged|brk-6.1 brk-6.8-tcg|vmreplay.brk.ops_per_sec|1|false same
VMA count of a qemu-tcg run: still compared|brk-6.1 brk-6.8-tcg|vmreplay.vma_count.final|1|true changed
LIST
n=0
while IFS='|' read -r name files metric col want; do
	n=$((n + 1))
	set --
	for f in $files; do set -- "$@" "$D/$f.json"; done
	"$R" --all -f json "$@" >"$T/$n.json" 2>/dev/null
	printf '%s\t%s\t%s\n' "$T/$n.json" "$metric" "$col" >>"$T/queries"
done <"$T/cases"

# one Python for every query, and for Welch's test recomputed from the runs:
# t and Welch-Satterthwaite df, p from the t density integrated numerically;
# then Benjamini-Hochberg over every Welch-tested cell of the report
for pair in "sig-outlier-a sig-outlier-b" "sig-overlap-a sig-overlap-b" "brk-6.1 brk-6.8" "sig-small-a sig-small-b"; do
	set -- $pair
	"$R" --all -f json "$D/$1.json" "$D/$2.json" >"$T/welch-$1.json"
	printf '%s\twelch\t1\n' "$T/welch-$1.json" >>"$T/queries"
done
"$R" --all -f json "$D/brk-6.1.json" "$D/brk-6.8.json" "$D/brk-6.12.json" >"$T/bh.json"
printf '%s\tbh\t1\n' "$T/bh.json" >>"$T/queries"
python3 - "$T/queries" >"$T/answers" <<'PY'
import json, math, sys
for line in open(sys.argv[1]):
    path, metric, col = line.rstrip("\n").split("\t")
    d = json.load(open(path))
    if metric == "bh":
        cells = [c for m in d["metrics"] for c in m["cells"][1:] if c["test"] == "welch"]
        p = sorted(c["p"] for c in cells)
        n = len(p)
        def q(pk):
            return min(min(p[j] * n / (j + 1) for j in range(n) if p[j] >= pk), 1)
        bad = [c for c in cells if abs(c["q"] - q(c["p"])) > 1e-12 * max(1, q(c["p"]))]
        print("ok" if n and not bad else "%d cells, %d with another q" % (n, len(bad)))
        continue
    if metric != "welch":
        c = [m for m in d["metrics"] if m["name"] == metric][0]["cells"][int(col)]
        print(str(c["significant"]).lower(), c["verdict"])
        continue
    m = [m for m in d["metrics"] if m["name"] == "vmreplay.brk.ops_per_sec"][0]
    a, b, c = m["cells"][0]["values"], m["cells"][1]["values"], m["cells"][1]
    def var(x):
        mu = sum(x) / len(x)
        return sum((v - mu) ** 2 for v in x) / (len(x) - 1)
    va, vb = var(a) / len(a), var(b) / len(b)
    t = (sum(b) / len(b) - sum(a) / len(a)) / math.sqrt(va + vb)
    df = (va + vb) ** 2 / (va * va / (len(a) - 1) + vb * vb / (len(b) - 1))
    k = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)
    pdf = lambda x: k * (1 + x * x / df) ** (-(df + 1) / 2)
    n, h = 20000, abs(t) / 20000
    s = pdf(0) + pdf(abs(t)) + sum((4 if i % 2 else 2) * pdf(i * h) for i in range(1, n))
    p = 1 - 2 * s * h / 3
    good = abs(c["t"] - t) < 1e-6 * max(1, abs(t)) and abs(c["df"] - df) < 1e-6 * df and abs(c["p"] - p) < 1e-7
    print("ok" if good else "t %r/%r df %r/%r p %r/%r" % (c["t"], t, c["df"], df, c["p"], p))
PY

k=0
while IFS='|' read -r name files metric col want; do
	k=$((k + 1))
	is "$(sed -n "${k}p" "$T/answers")" "$want" "$name"
done <"$T/cases"
for pair in "sig-outlier" "sig-overlap" "brk-6.1 / brk-6.8" "sig-small"; do
	k=$((k + 1))
	is "$(sed -n "${k}p" "$T/answers")" ok "Welch's test on $pair matches an independent computation"
done
k=$((k + 1))
is "$(sed -n "${k}p" "$T/answers")" ok "q: Benjamini-Hochberg over every tested cell of a three-column report, recomputed"

"$R" "$D/brk-6.1.json" "$D/brk-6.8.json" >"$T/txt"
is "$(grep -c 'vmreplay.brk.ops_per_sec  regression q<0.001$' "$T/txt")" 1 "text shows the verdict with its q"
grep -q '^statistic: %change of the means' "$T/txt"
ok $? "the header states the statistic"
is "$(grep -c ' p=\| p<' "$T/txt")" 0 "no unadjusted p in the text"

# the %change and the flag come from the same means: the sign always agrees
"$R" --all -f json "$D/brk-6.1.json" "$D/brk-6.8.json" "$D/brk-6.12.json" "$D/sig-outlier-b.json" --any-trace 2>/dev/null >"$T/sign.json"
is "$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
bad = 0
for m in d["metrics"]:
    for c in m["cells"][1:]:
        if c["significant"] and c["change_pct"] is not None and (c["change_pct"] > 0) != (c["delta"] > 0):
            bad += 1
        if c["t"] is not None and c["change_pct"] and (c["t"] > 0) != (c["change_pct"] > 0):
            bad += 1
print(bad)' "$T/sign.json")" 0 "%change, the difference and t agree in sign in every cell"

done_testing

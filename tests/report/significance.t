#!/bin/sh
# When a change counts: LKP's rule (>= 3 runs on a side, medians separated
# after trimming a quarter off each end, medians > 1% apart for timings),
# Welch's p-value checked against an independent computation, and the
# direction of each kind of metric.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data

# NAME|FILES|METRIC|COLUMN|WANT ("significant verdict" of that column)
cat >"$T/cases" <<'LIST'
2 runs a side, 14% apart: not significant (LKP needs 3)|sig-2runs-a sig-2runs-b|vmreplay.brk.ops_per_sec|1|false same
5 runs a side, overlapping: not significant|sig-overlap-a sig-overlap-b|vmreplay.brk.ops_per_sec|1|false same
4 runs with one outlier: trimmed away, the rest separate|sig-outlier-a sig-outlier-b|vmreplay.brk.ops_per_sec|1|true regression
separated runs, medians 0.5% apart: below LKP's 1%|sig-small-a sig-small-b|vmreplay.brk.ops_per_sec|1|false same
ops/s down: regression|brk-6.1 brk-6.8|vmreplay.brk.ops_per_sec|1|true regression
ops/s up: improvement|brk-6.1 brk-6.12|vmreplay.brk.ops_per_sec|1|true improvement
latency up: regression|brk-6.1 brk-6.8|vmreplay.brk.latency_ns.p50|1|true regression
latency down: improvement|brk-6.1 brk-6.12|vmreplay.brk.latency_ns.p50|1|true improvement
more VMAs: regression|brk-6.1 brk-6.8|vmreplay.vma_count.final|1|true regression
fewer VMAs: improvement|churn-sim-6.1 churn-sim-6.8|vmreplay.vma_count.final|1|true improvement
merge outcomes: changed, no direction|brk-6.1 brk-6.8|vmreplay.merge.new|1|true changed
unchanged mmap: same|brk-6.1 brk-6.8|vmreplay.mmap.ops_per_sec|1|false same
third column against the first, not the second|brk-6.1 brk-6.8 brk-6.12|vmreplay.brk.ops_per_sec|2|true improvement
simulator against simulator, one run each: any difference counts (exact)|churn-sim-6.1 churn-sim-6.8|vmreplay.merge.failed|1|true regression
timing of a qemu-tcg run: never significant|brk-6.1 brk-6.8-tcg|vmreplay.brk.ops_per_sec|1|false same
VMA count of a qemu-tcg run: still compared|brk-6.1 brk-6.8-tcg|vmreplay.vma_count.final|1|true regression
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
# t and Welch-Satterthwaite df, p from the t density integrated numerically
for pair in "sig-outlier-a sig-outlier-b" "sig-overlap-a sig-overlap-b" "brk-6.1 brk-6.8" "sig-small-a sig-small-b"; do
	set -- $pair
	"$R" --all -f json "$D/$1.json" "$D/$2.json" >"$T/welch-$1.json"
	printf '%s\twelch\t1\n' "$T/welch-$1.json" >>"$T/queries"
done
python3 - "$T/queries" >"$T/answers" <<'PY'
import json, math, sys
for line in open(sys.argv[1]):
    path, metric, col = line.rstrip("\n").split("\t")
    d = json.load(open(path))
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

"$R" "$D/sig-outlier-a.json" "$D/sig-outlier-b.json" | grep -c 'regression p=0.731' >"$T/n"
is "$(cat "$T/n")" 1 "text shows the verdict with its p-value"

done_testing

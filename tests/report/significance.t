#!/bin/sh
# When a change counts: LKP's rule (>= 3 runs on a side, medians separated
# after trimming a quarter off each end, medians > 1% apart for timings),
# Welch's p-value checked against an independent computation, and the
# direction of each kind of metric.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data

# cell A B METRIC [COLUMN]: "significant verdict" of that column
cell() {
	"$R" --all -f json "$D/$1" "$D/$2" ${5:+"$D/$5"} >"$T/j" 2>/dev/null
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = [m for m in d["metrics"] if m["name"] == sys.argv[2]][0]
c = m["cells"][int(sys.argv[3])]
print(str(c["significant"]).lower(), c["verdict"])' "$T/j" "$3" "${4:-1}"
}

is "$(cell sig-2runs-a.json sig-2runs-b.json vmreplay.brk.ops_per_sec)" "false same" \
   "2 runs a side, 14% apart: not significant (LKP needs 3)"
is "$(cell sig-overlap-a.json sig-overlap-b.json vmreplay.brk.ops_per_sec)" "false same" \
   "5 runs a side, overlapping: not significant"
is "$(cell sig-outlier-a.json sig-outlier-b.json vmreplay.brk.ops_per_sec)" "true regression" \
   "4 runs with one outlier: trimmed away, the rest separate"
is "$(cell sig-small-a.json sig-small-b.json vmreplay.brk.ops_per_sec)" "false same" \
   "separated runs, medians 0.5% apart: below LKP's 1%"

# direction: ops/s up good, latency and VMA counts down good, merges neutral
is "$(cell brk-6.1.json brk-6.8.json vmreplay.brk.ops_per_sec)" "true regression" "ops/s down: regression"
is "$(cell brk-6.1.json brk-6.12.json vmreplay.brk.ops_per_sec)" "true improvement" "ops/s up: improvement"
is "$(cell brk-6.1.json brk-6.8.json vmreplay.brk.latency_ns.p50)" "true regression" "latency up: regression"
is "$(cell brk-6.1.json brk-6.12.json vmreplay.brk.latency_ns.p50)" "true improvement" "latency down: improvement"
is "$(cell brk-6.1.json brk-6.8.json vmreplay.vma_count.final)" "true regression" "more VMAs: regression"
is "$(cell churn-sim-6.1.json churn-sim-6.8.json vmreplay.vma_count.final)" "true improvement" "fewer VMAs: improvement"
is "$(cell brk-6.1.json brk-6.8.json vmreplay.merge.new)" "true changed" "merge outcomes: changed, no direction"
is "$(cell brk-6.1.json brk-6.8.json vmreplay.mmap.ops_per_sec)" "false same" "unchanged mmap: same"
is "$(cell brk-6.1.json brk-6.8.json vmreplay.brk.ops_per_sec 2 brk-6.12.json)" "true improvement" \
   "third column against the first, not the second"
is "$(cell churn-sim-6.1.json churn-sim-6.8.json vmreplay.merge.failed)" "true regression" \
   "simulator against simulator, one run each: any difference counts (exact)"
is "$(cell brk-6.1.json brk-6.8-tcg.json vmreplay.brk.ops_per_sec)" "false same" \
   "timing of a qemu-tcg run: never significant"
is "$(cell brk-6.1.json brk-6.8-tcg.json vmreplay.vma_count.final)" "true regression" \
   "VMA count of a qemu-tcg run: still compared"

# Welch's t, df and p against Python: the t density integrated numerically
for pair in "sig-outlier-a.json sig-outlier-b.json" "sig-overlap-a.json sig-overlap-b.json" \
	    "brk-6.1.json brk-6.8.json" "sig-small-a.json sig-small-b.json"; do
	set -- $pair
	"$R" --all -f json "$D/$1" "$D/$2" >"$T/j"
	got=$(python3 -c '
import json, math, sys
d = json.load(open(sys.argv[1]))
m = [m for m in d["metrics"] if m["name"] == "vmreplay.brk.ops_per_sec"][0]
a, b = m["cells"][0]["values"], m["cells"][1]["values"]
c = m["cells"][1]
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
ok = abs(c["t"] - t) < 1e-6 * max(1, abs(t)) and abs(c["df"] - df) < 1e-6 * df and abs(c["p"] - p) < 1e-7
print("ok" if ok else "t %r/%r df %r/%r p %r/%r" % (c["t"], t, c["df"], df, c["p"], p))' "$T/j")
	is "$got" ok "Welch's test on $1 / $2 matches an independent computation"
done

"$R" "$D/sig-outlier-a.json" "$D/sig-outlier-b.json" | grep -c 'regression p=0.731' >"$T/n"
is "$(cat "$T/n")" 1 "text shows the verdict with its p-value"

done_testing

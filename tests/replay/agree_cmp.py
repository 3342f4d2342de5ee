"""agree_cmp.py KERNEL.json SIM.json: compare the per-event outcome and VMA
count of two vmreplay --per-event results.  Prints the first differing
events (at most 5) and exits 1 if any differ or either side has no events."""
import json
import sys


def events(path):
    per = json.load(open(path))["per_event"]
    return {(e["pid"], e["i"]): (e["op"], e["outcome"], e["vma_count"]) for e in per}


k, s = events(sys.argv[1]), events(sys.argv[2])
keys = sorted(set(k) | set(s), key=lambda x: (x[1], x[0]))
bad = [x for x in keys if k.get(x) != s.get(x)]
for pid, i in bad[:5]:
    print("event %d pid %d: kernel %s, sim %s" % (i, pid, k.get((pid, i)), s.get((pid, i))))
print("%d events, %d differ" % (len(keys), len(bad)))
sys.exit(1 if bad or not keys else 0)

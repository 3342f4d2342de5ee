#!/usr/bin/env python3
"""Validate a vmreplay results file against docs/results-schema.md.
usage: check_results.py FILE RUNS [per_event]   -- prints problems, exit 1 if any."""
import json, re, sys

path, runs = sys.argv[1], int(sys.argv[2])
want_pe = len(sys.argv) > 3
d = json.load(open(path))
bad = []
def need(cond, msg):
    if not cond:
        bad.append(msg)

need(d.get("vmrec_results") == 1, "vmrec_results is not 1")
for k, t in (("trace", str), ("target", str), ("kernel", str), ("command", str), ("host", dict), ("metrics", dict)):
    need(isinstance(d.get(k), t), "%s missing or not %s" % (k, t.__name__))
need(d.get("target") in ("kernel", "sim"), "target is %r" % d.get("target"))
for k, t in (("cpu", str), ("cores", int), ("memory", int), ("thp_enabled", str), ("thp_defrag", str)):
    need(isinstance(d["host"].get(k), t), "host.%s missing or not %s" % (k, t.__name__))
name = re.compile(r"^vmreplay\.[a-z0-9_]+(\.[a-z0-9_]+)*$")
for k, v in d["metrics"].items():
    need(name.match(k) is not None, "metric name %r" % k)
    need(isinstance(v, list) and len(v) == runs, "metric %s: %r is not %d values" % (k, v, runs))
    need(all(isinstance(x, (int, float)) for x in v), "metric %s: non-numbers" % k)
for k in ("vmreplay.vma_count.final", "vmreplay.fidelity.checkpoints_matched",
          "vmreplay.fidelity.checkpoints_total", "vmreplay.merge.new", "vmreplay.merge.failed"):
    need(k in d["metrics"], "metric %s missing" % k)
ops = [k for k in d["metrics"] if k.endswith(".ops_per_sec") and k.count(".") == 2]
need(ops, "no vmreplay.<syscall>.ops_per_sec")
for o in ops:
    sysname = o.split(".")[1]
    for s in ("p50", "p90", "p99", "mean", "stddev", "min", "max"):
        need("vmreplay.%s.latency_ns.%s" % (sysname, s) in d["metrics"], "%s latency %s missing" % (sysname, s))
if want_pe:
    pe = d.get("per_event")
    need(isinstance(pe, list) and pe, "per_event missing")
    for e in pe or []:
        for k, t in (("i", int), ("op", str), ("outcome", str), ("vma_count", int), ("errno", int), ("call", str)):
            if k == "errno" and e.get("outcome") in ("skipped", "not_reached"):
                t = type(None)   # not replayed: no errno of its own
            need(isinstance(e.get(k), t), "per_event %r: %s" % (e.get("i"), k))
        if d["target"] == "sim":
            need("rule" in e and (e["rule"] is None or isinstance(e["rule"], str)),
                 "per_event %r: rule missing (sim)" % e.get("i"))
        else:
            need("rule" not in e, "per_event %r: rule on the kernel target" % e.get("i"))
else:
    need("per_event" not in d, "per_event present without --per-event")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)

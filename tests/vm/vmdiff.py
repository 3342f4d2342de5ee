#!/usr/bin/env python3
"""vmdiff.py - compare per-event results of a real kernel and the simulator.

  vmdiff.py [--reduced OUT.txt] OPS.txt REAL.json SIM.json

OPS.txt is vm-seqgen's listing ("i: op(+Pp, Np, ...)").  Events agree when
their outcome is the same and the VMA count changed by the same amount (the
real process has VMAs of its own, so absolute counts differ by a constant).
On a mismatch, prints the first differing event, the simulator rule that
decided it, and a reduced sequence: the operations before it that touched
its pages or their neighbours, transitively; --reduced writes it as a
listing `vm-seqgen list` turns back into a trace.  Exit status 1 on a
mismatch, 2 on unusable input.
"""
import json
import re
import sys


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
        events = doc["per_event"]
        return doc, {int(e["i"]): e for e in events}
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"vmdiff: {path}: no usable per_event results ({e})")


def load_ops(path):
    ops = {}
    with open(path) as f:
        for line in f:
            m = re.match(r"(\d+): (.*)", line.strip())
            if m:
                ops[int(m.group(1))] = m.group(2)
    return ops


def pages(op):
    m = re.search(r"\(\+(\d+)p, (\d+)p", op)
    if not m:
        return None
    p, n = int(m.group(1)), int(m.group(2))
    return set(range(p - 1, p + n + 1))


def reduce(ops, upto):
    """The ops before `upto` that touched its pages (and neighbours), transitively."""
    want = pages(ops[upto]) or set()
    keep = [upto]
    for i in range(upto - 1, -1, -1):
        r = pages(ops.get(i, ""))
        if r is None or r & want:
            keep.append(i)
            want |= r or set()
    return sorted(keep)


def describe(e, delta):
    return f"{e.get('outcome')}, vma_count {delta:+d}"


def main():
    args = sys.argv[1:]
    reduced_out = None
    if args[:1] == ["--reduced"] and len(args) > 1:
        reduced_out = args[1]
        args = args[2:]
    if len(args) != 3:
        sys.exit("usage: vmdiff.py [--reduced OUT.txt] OPS.txt REAL.json SIM.json")
    ops = load_ops(args[0])
    real_doc, real = load(args[1])
    sim_doc, sim = load(args[2])
    real_name = real_doc.get("vm_kernel") or real_doc.get("kernel", "real")
    sim_name = "sim " + str(sim_doc.get("kernel", "?"))
    if sorted(real) != sorted(sim):
        print(f"# {real_name} replayed {len(real)} events, {sim_name} {len(sim)}")
        return 1
    prev_r = prev_s = None
    for i in sorted(real):
        r, s = real[i], sim[i]
        cr, cs = r.get("vma_count", -1), s.get("vma_count", -1)
        dr = cr - prev_r if prev_r is not None else 0
        ds = cs - prev_s if prev_s is not None else 0
        prev_r, prev_s = cr, cs
        if r.get("outcome") == s.get("outcome") and dr == ds:
            continue
        print(f"# mismatch at event {i} ({ops.get(i, '?')}):")
        print(f"#   {real_name}: {describe(r, dr)}")
        print(f"#   {sim_name}: {describe(s, ds)}, rule {s.get('rule')}")
        print("# reduced sequence (the ops that touched those pages or their neighbours):")
        kept = reduce(ops, i)
        for k in kept:
            print(f"#   {k}: {ops.get(k, '?')}")
        if reduced_out:
            with open(reduced_out, "w") as f:
                for j, k in enumerate(kept):
                    f.write(f"{j}: {ops.get(k, '?')}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

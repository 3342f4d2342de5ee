#!/usr/bin/env python3
"""selftests_cmp.py KERNEL.json SIM.json - compare, event by event, a
replay on a kernel (this one, or a QEMU guest's) with the simulator's
(`vmreplay --per-event`): outcome, VMA count, errno and result.

A kernel result is compared after taking away the offset the kernel back
end applied to that event (its "offset" field), so both name the recorded
address.  Events the kernel replay skipped for its own safety (it would
have touched memory it does not own) are not compared: they are
counted apart and each is printed ("skipped").  Exits, exec and thread
starts, which no replay redoes, are counted as "not replayed".  So are events where the
kernel replay answered otherwise than the recording (its stand-in for a
file is not the file: a memfd's pages on ext4) while the simulator
answered as recorded, with the same VMA count: they are printed and
counted apart ("off the recording"), not as agreement.  A simulator failure without
rule text is a disagreement of its own: every refusal must say which rule
made it.

Prints the first differing events (at most 8) with the simulator's rule,
the skipped ones, then one summary line "N events compared, M differ
(...), S skipped for the replay's safety, R not replayed"; exits
1 if any differ or nothing was compared, 2 on unusable input."""
import json
import sys

FIELDS = ("outcome", "vma_count", "errno", "result")
# results that are process ids, not addresses: each replay has its own
PIDS = ("fork", "vfork", "clone", "clone3")
# results that are addresses: the kernel's carry the event's offset
ADDRS = ("mmap", "mremap", "brk", "shmat")
# what no replay redoes (replay/apply.c: threads, exec, exit)
NOT_REDONE = ("exit", "exit_group", "execve", "execveat", "clone", "clone3")


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
        return doc, doc["per_event"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"selftests_cmp: {path}: no usable per_event results ({e})")


def view(e):
    res = e.get("result")
    if e.get("op") in PIDS or e.get("recorded_errno"):
        # a pid; or a call that failed when recorded, so nothing says
        # where a replay that succeeds should put it
        res = None
    elif res is not None and e.get("op") in ADDRS and e.get("errno") == 0 and e.get("offset"):
        res -= e["offset"]
    return {"outcome": e.get("outcome"), "vma_count": e.get("vma_count"),
            "errno": e.get("errno"), "result": res}


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: selftests_cmp.py KERNEL.json SIM.json")
    kdoc, kev = load(sys.argv[1])
    sdoc, sev = load(sys.argv[2])
    kname = kdoc.get("vm_kernel") or kdoc.get("kernel", "kernel")
    sname = "sim " + str(sdoc.get("kernel", "?"))
    sims = {(e["pid"], e["i"]): e for e in sev}
    differ = {f: 0 for f in FIELDS}
    bad, off, unsafe, compared, skipped, redo, norule = [], [], [], 0, 0, 0, 0
    for k in kev:
        s = sims.get((k["pid"], k["i"]))
        if k.get("outcome") == "skipped" and s is not None and k.get("op") in NOT_REDONE:
            redo += 1
            continue
        if k.get("outcome") in ("skipped", "not_reached") or s is None:
            if k.get("outcome") != "not_reached" or s is None:
                skipped += 1
                unsafe.append(k)
            continue
        compared += 1
        kv, sv = view(k), view(s)
        fields = [f for f in FIELDS if kv[f] != sv[f]]
        if sv["outcome"] == "failed" and not s.get("rule"):
            norule += 1
            fields.append("rule")
        if (fields and "vma_count" not in fields and "rule" not in fields
                and k.get("mismatch") and s.get("mismatch") is False):
            off.append((k, s, kv, sv, fields))
            compared -= 1
            continue
        for f in fields:
            if f in differ:
                differ[f] += 1
        if fields:
            bad.append((k, s, kv, sv, fields))
    for k, s, kv, sv, fields in bad[:8]:
        print(f"# event {k['i']}: {k.get('call')}")
        print(f"#   {kname}: " + ", ".join(f"{f} {kv[f]}" for f in FIELDS))
        print(f"#   {sname}: " + ", ".join(f"{f} {sv[f]}" for f in FIELDS) +
              f"; rule: {s.get('rule')}")
        print(f"#   differ in: {', '.join(fields)}")
    for k, s, kv, sv, fields in off[:3]:
        print(f"# event {k['i']}: {k.get('call')}: {kname} replay answered "
              f"errno {kv['errno']}, off the recording; the simulator as recorded")
    for k in unsafe[:8]:
        print(f"# event {k['i']}: {k.get('call')}: skipped by the {kname} replay (its own safety)")
    parts = [f"{f} {n}" for f, n in differ.items() if n]
    if norule:
        parts.append(f"{norule} failures without rule text")
    print(f"{compared} events compared, {len(bad)} differ" +
          (f" ({', '.join(parts)})" if parts else "") +
          f", {skipped} skipped for the replay's safety, {redo} not replayed" +
          (f", {len(off)} where the kernel replay is off the recording" if off else ""))
    return 1 if bad or not compared else 0


if __name__ == "__main__":
    sys.exit(main())

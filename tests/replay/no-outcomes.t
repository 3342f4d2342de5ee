#!/bin/sh
# --no-outcomes: brk takes a lean path of its own (apply.c) and every other
# call the general one.  Both give each event the same result, errno,
# mismatch verdict and (unmeasured) outcome and VMA count as the general
# path does for brk too (--threads takes it for every call).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

# grow, a refused grow, an mmap between brks, shrink, a shrink refused below
# the heap, and a grow recorded as refused that succeeds here (a mismatch)
{ base_map; cat <<'EOF2'
ev 100 brk 0 0 0 0 0 0 = 0x10102000
ev 100 brk 0x10104000 0 0 0 0 0 = 0x10104000
ev 100 brk 0x7ffffffff000 0 0 0 0 0 = 0x10104000
ev 100 mmap 0 0x4000 3 0x22 -1 0 = 0x20000000
ev 100 brk 0x10106000 0 0 0 0 0 = 0x10106000
ev 100 brk 0x10103000 0 0 0 0 0 = 0x10103000
ev 100 brk 0x10000000 0 0 0 0 0 = 0x10103000
ev 100 brk 0x10108000 0 0 0 0 0 = 0x10103000
ev 100 munmap 0x20000000 0x4000 0 0 0 0 = 0
ck 100 3 6 1
EOF2
} | mk mixed

# i op outcome vma_count errno (result - recorded result) mismatch
events() {
	"$PYTHON" -c '
import json, sys
for e in json.load(open(sys.argv[1]))["per_event"]:
    print(e["i"], e["op"], e["outcome"], e["vma_count"], e["errno"],
          hex(e["result"] - e["recorded_result"]), "MISMATCH" if e["mismatch"] else "ok")
' "$1"
}

"$V" -q --no-outcomes --per-event --json "$T/lean.json" "$T/mixed.vmt" 2>"$T/lean.err"
ok $? "replay with --no-outcomes"
events "$T/lean.json" >"$T/lean"
# the image's offset, from the first brk (the trace's heap start is known)
off=$(sed -n 's/^0 brk unchanged -1 0 \(0x[0-9a-f]*\) ok$/\1/p' "$T/lean")
[ -n "$off" ] || off=unknown
cat >"$T/want" <<EOF2
0 brk unchanged -1 0 $off ok
1 brk unchanged -1 0 $off ok
2 brk unchanged -1 0 $off ok
3 mmap unchanged -1 0 $off ok
4 brk unchanged -1 0 $off ok
5 brk unchanged -1 0 $off ok
6 brk unchanged -1 0 $off ok
7 brk unchanged -1 0 $(printf '%#x' $((off + 0x5000))) MISMATCH
8 munmap unchanged -1 0 0x0 ok
EOF2
is_file "$T/lean" "$T/want" "results, errnos and the one mismatch, brk by the lean path"
grep -q "event 7 (brk): returned" "$T/lean.err"
ok $? "the mismatch is reported"
is "$(grep -c . "$T/lean.err")" 1 "and nothing else is"
is "$(metric "$T/lean.json" vmreplay.brk.calls)" 7 "every brk counted"
is "$(metric "$T/lean.json" vmreplay.fidelity.result_mismatches)" 1 "one result mismatch counted"
is "$(metric "$T/lean.json" vmreplay.fidelity.checkpoints_matched)" 2 "checkpoints match"

"$V" -q --no-outcomes --threads --per-event --json "$T/general.json" "$T/mixed.vmt" 2>/dev/null
events "$T/general.json" >"$T/general"
is_file "$T/lean" "$T/general" "the general path gives every event the same"

# a heap grown from the replayer's own break: brk events carry its offset
# (each run's own break differs: the offset is checked against the results)
VMREPLAY_OWN_BREAK=1 "$V" -q --no-outcomes --per-event --json "$T/lean-own.json" "$T/mixed.vmt" 2>/dev/null
bad=$("$PYTHON" -c '
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["per_event"] if e["op"] == "brk" and not e["mismatch"]]
print(sum(1 for e in ev if e["offset"] != e["result"] - e["recorded_result"] or not e["offset"]), len(ev))
' "$T/lean-own.json")
is "$bad" "0 6" "the lean path gives brk events their offset"
done_testing

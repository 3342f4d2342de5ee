#!/bin/sh
# Who a checkpoint that differs is down to: the simulator in the profile
# of the recording's kernel replays the same trace.  It gives the recorded
# count: the replaying kernel lays VMAs out differently ("layout", with
# the first event and the rules; --strict fails on it only on the
# recording's kernel); it does not: the trace lacks something ("count";
# --strict fails).  Without a profile for the recording's kernel, the map
# and the calls are the model, as before.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

# An anonymous mapping and a MAP_STACK one after it: one VMA up to 6.7,
# two from 6.8 on (MAP_STACK is VM_NOHUGEPAGE there).  KERNEL: the
# recording's; COUNT: its checkpoint's VMAs (7: as 6.1 merges them).
stack_trace() {
	echo "kernel $1"
	base_map
	echo 'ev 100 mmap 0x20000000 0x2000 3 0x32 -1 0 = 0x20000000'
	echo 'ev 100 mmap 0x20002000 0x2000 3 0x20032 -1 0 = 0x20002000'
	echo "ck 100 3 $2 1"
}
stack_trace 6.1.0-test 7 | mk on61
stack_trace 6.1.0-test 9 | mk lacks61
stack_trace 5.10.0-old 7 | mk old

"$V" --target sim --kernel 6.1 --strict -q "$T/on61.vmt" >"$T/out" 2>&1
ok $? "in the recording's kernel's profile: every checkpoint matches"

"$V" --target sim --kernel 6.18 --strict -q --json "$T/on61.json" "$T/on61.vmt" >"$T/out" 2>&1
ok $? "in another profile, --strict does not fail on its layout"
out=$(cat "$T/out")
like "$out" "layout: recorded 6 VMAs; replay: sim:6.18 lays VMAs out differently: the recording's kernel's profile \(sim:6.1\) gives the recorded count; first at event 1, mmap\(0x20002000, 8192, [^)]*MAP_STACK, -1, 0\) = 0x20002000: here new \(.*\), sim:6.1 expand_prev" \
	"it says which kernel lays VMAs out differently, the first event and both outcomes"
is "$(printf '%s\n' "$out" | grep -c 'lacks something')" 0 "and not that the trace lacks something"
is "$("$PYTHON" -c '
import json, sys
print(" ".join(d["kind"] for d in json.load(open(sys.argv[1]))["fidelity_diffs"]))' "$T/on61.json")" \
	"split layout" "the JSON carries the VMA and the verdict"

"$V" --strict -q "$T/on61.vmt" >"$T/out" 2>&1
ok $? "on this kernel (not the recording's) --strict does not fail on its layout either"
is "$(grep -c 'lacks something' "$T/out")" 0 "nor says the trace lacks something"

"$V" --target sim --kernel 6.18 --strict -q "$T/lacks61.vmt" >"$T/out" 2>&1
is $? 1 "a count the recording's profile does not give either fails --strict"
like "$(cat "$T/out")" "count: recorded 8 VMAs; replay: the recording's kernel's profile \(sim:6.1\) gives 6: the trace lacks something" \
	"and says the trace lacks something"

"$V" --target sim --kernel 6.18 --strict -q "$T/old.vmt" >"$T/out" 2>&1
is $? 1 "recorded on a kernel older than every profile: no referee, --strict fails"
is "$(grep -c 'layout:\|count:' "$T/out")" 0 "and no verdict (the map and the calls give the recorded count)"

# The case seen: python with four threads, recorded here, replayed in the
# 6.1 profile (MAP_STACK stacks still merge there).
[ -x "$PYTHON" ] || { done_testing; exit; }
need_built "$B/bin/vmrec"
"$B/bin/vmrec" -o "$T/py.lz4" -- "$PYTHON" -c 'import threading
ts = [threading.Thread(target=bytearray, args=(1 << 20,)) for _ in range(4)]
[t.start() for t in ts]
[t.join() for t in ts]'
"$V" --target sim --kernel 6.1 --strict -q "$T/py.lz4" >"$T/out" 2>&1
ok $? "threaded python in the 6.1 profile: --strict does not fail on 6.1's layout"
sed 's/^/# /' "$T/out"
is "$(grep -c 'lacks something' "$T/out")" 0 "and does not say the trace lacks something"
"$V" --target sim --kernel host --strict -q "$T/py.lz4" >"$T/out" 2>&1
ok $? "in the host profile it replays exactly"
done_testing

#!/bin/sh
# The reduced sequences on which the simulator disagreed with the real 6.1
# and 6.12 kernels in tests/vm/differential.t (before outcomes were defined
# as the kernel back end defines them, and before 6.1's kept VM_ACCOUNT):
# the simulator's 6.1 profile must name the last call as real 6.1 did, and
# on this kernel the kernel back end and the host profile must agree event
# by event.  No guest is booted: this runs in make check.
. "$(dirname "$0")/../lib.sh"

replay=$B/bin/vmreplay
need_built "$replay" "$B/tests/vm/vm-seqgen"

# NAME "OUTCOME DELTA" seen on real 6.1 for the last call, then the ops
seq_s1='split +0
mmap(+1p, 8p, rw-, fixed)
munmap(+0p, 6p)
mmap(+8p, 4p, r--, fixed)
mprotect(+6p, 5p, rw-)'
seq_s3='merge_both -1
mmap(+13p, 2p, rw-, fixed noreserve)
mmap(+6p, 6p, r--, fixed stack)
munmap(+19p, 2p)
mmap(+5p, 1p, ---, fixed)
mmap(+4p, 1p, rw-, fixed)
munmap(+16p, 4p)
mmap(+12p, 8p, rw-, fixed noreserve)
mprotect(+5p, 6p, r--)'
seq_s11='split +1
munmap(+29p, 2p)
mmap(+29p, 3p, r--, fixed)
munmap(+22p, 5p)
madvise(+29p, 3p, dofork)
mmap(+22p, 7p, r--, fixed stack)
mprotect(+22p, 7p, rw-)
mprotect(+26p, 6p, ---)'
seq_s15='split +1
mmap(+24p, 4p, rw-, fixed)
mmap(+18p, 2p, rw-, fixed noreserve)
mmap(+22p, 5p, r--, fixed)
mmap(+18p, 5p, rw-, fixed noreserve)
mmap(+30p, 2p, rw-, fixed)
mmap(+22p, 2p, rw-, fixed)
munmap(+16p, 3p)
mmap(+29p, 1p, ---, fixed)
mprotect(+20p, 8p, r--)'

for name in s1 s3 s11 s15; do
	eval "text=\$seq_$name"
	want=$(printf '%s\n' "$text" | head -n 1)
	printf '%s\n' "$text" | tail -n +2 | awk '{ print NR - 1 ": " $0 }' >"$T/$name.ops"
	"$B/tests/vm/vm-seqgen" list "$T/$name.ops" "$T/$name.trace" >/dev/null
	"$replay" --target sim --kernel 6.1 --per-event --json "$T/$name-61.json" "$T/$name.trace" >/dev/null 2>&1
	got=$(python3 - "$T/$name-61.json" <<'PY'
import json, sys
ev = json.load(open(sys.argv[1]))["per_event"]
print(f"{ev[-1]['outcome']} {ev[-1]['vma_count'] - ev[-2]['vma_count']:+d}")
PY
)
	is "$got" "$want" "$name: sim 6.1 names the last call as real 6.1 did"
	"$replay" --target kernel --per-event --json "$T/$name-k.json" "$T/$name.trace" >/dev/null 2>&1
	"$replay" --target sim --kernel host --per-event --json "$T/$name-h.json" "$T/$name.trace" >/dev/null 2>&1
	python3 "$S/tests/vm/vmdiff.py" "$T/$name.ops" "$T/$name-k.json" "$T/$name-h.json"
	ok $? "$name: this kernel and the host profile agree event by event"
done
done_testing

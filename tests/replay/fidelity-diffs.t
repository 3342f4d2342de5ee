#!/bin/sh
# A checkpoint whose VMA count differs says which VMA differs, in the text
# and in the results JSON (fidelity_diffs): the recorded layout is rebuilt
# from the map and the recorded calls, or taken from the trace's LAYOUT,
# and compared with the replay's; then who it is down to (tests/replay/
# blame.t for the verdicts).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

# Two anonymous mappings a page apart when recorded; --placement kernel
# puts them side by side, where they merge.
{ cat <<'EOF2'
process 100 1 0
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x10100000 0x10102000 rw- [heap]
vma 0x30000000 0x30021000 rw- [stack]
vma 0x40000000 0x40002000 r-x [vdso]
vma 0x50000000 0x50001000 rw- rec
end
ck 100 1 5 1
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x7f0000010000
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x7f0000002000
ck 100 4 7 1
EOF2
} | mk merged
"$V" --placement kernel --json "$T/out.json" "$T/merged.vmt" >"$T/out"
ok $? "replayed"
is "$(grep -A1 '^fidelity: pid 100' "$T/out" | sed 's/(here 0x[0-9a-f]*-0x[0-9a-f]*)/(here X)/')" \
"fidelity: pid 100 checkpoint after event 1: 5 VMAs, recorded 6
  merged: recorded 0x7f0000002000-0x7f0000003000 rw-p [anon]; replay: merged with next: 0x7f0000002000-0x7f0000003000 (here X) rw-p [anon]" \
	"the text names the VMA that merged"
is "$("$PYTHON" -c '
import json, sys
for d in json.load(open(sys.argv[1]))["fidelity_diffs"]:
    print(d["pid"], d["checkpoint"], d["after_event"], d["kind"], d["recorded"])
' "$T/out.json")" "100 1 1 merged 0x7f0000002000-0x7f0000003000 rw-p [anon]
100 1 1 layout 6 VMAs" "and the JSON carries it, and the verdict: this kernel's placement"
"$V" --placement kernel --strict -q "$T/merged.vmt" >/dev/null
is $? 1 "--strict fails on a layout difference on the recording's own kernel"

# A recorded count the map and the calls do not explain: no VMA differs,
# the trace lacks something.
{ base_map; echo 'ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000'; echo 'ck 100 4 8 1'; } | mk lacks
"$V" --json "$T/lacks.json" "$T/lacks.vmt" >"$T/out"
is "$(grep -A1 '^fidelity: pid 100' "$T/out")" "fidelity: pid 100 checkpoint after event 0: 6 VMAs, recorded 7
  count: recorded 7 VMAs; replay: the recording's kernel's profile (sim:host) gives 6: the trace lacks something" "a count the trace does not explain says so"

# The same count, where two threads' calls overlapped in time on
# neighbouring pages: which took the mmap_lock first decides which VMAs
# merged (a neighbour's anon_vma), and no record says it (docs/trace-
# format.md, "Order"): the verdict says that, not that the trace lacks a
# call.  Once the calls no longer overlap, it lacks something again.
near() {
	{ base_map; cat <<EOF
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x20000000 tid=101 seq=10 end=$1
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x20001000 tid=102 seq=11 end=12
ck 100 4 8 1 seq=20
EOF
	} | mk "$2"
	"$V" --strict "$T/$2.vmt" 2>&1 | grep '^  count:'
}
is "$(near 15 near)" "  count: recorded 7 VMAs; replay: the recording's kernel's profile (sim:host) gives 6: the trace cannot tell the order: calls of pid 100 overlapped in time on neighbouring pages (first event seq 11 tid 102 mmap and seq 10 tid 101 mmap); which took the mmap_lock first decides which VMAs merge, and no record holds it" \
	"calls that overlapped on neighbouring pages: the order is what the trace cannot tell"
is "$(near 11 apart)" "  count: recorded 7 VMAs; replay: the recording's kernel's profile (sim:host) gives 6: the trace lacks something" \
	"the same calls one after the other: the trace lacks something"

# With the VMAs recorded at the checkpoint (LAYOUT, at exit): the replay
# is compared with them, and the count the calls do not explain names the
# recorded VMA they do not give.
{ base_map; echo 'ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000'; echo 'ck 100 3 8 1'
  cat <<'LAYOUT'
layout 100
vma 0x10000000 0x10001000 r-- exe
vma 0x10001000 0x10003000 rw-
vma 0x10100000 0x10102000 rw- [heap]
vma 0x20000000 0x20001000 rw-
vma 0x20001000 0x20003000 rw-
vma 0x30000000 0x30021000 rw- [stack]
vma 0x40000000 0x40002000 r-x [vdso]
vma 0x50000000 0x50001000 rw- rec
end
LAYOUT
} | mk named
"$V" --json "$T/named.json" "$T/named.vmt" >"$T/out"
is "$(grep -A2 '^fidelity: pid 100' "$T/out")" "fidelity: pid 100 checkpoint after event 0: 6 VMAs, recorded 7
  merged: recorded 0x20000000-0x20001000 rw-p [anon]; replay: merged with next: 0x20000000-0x20003000 rw-p [anon]
  count: recorded 7 VMAs; replay: the recording's kernel's profile (sim:host) gives 6: the trace lacks something: recorded 0x20000000-0x20001000 rw-p [anon]; sim:host has merged with next: 0x20000000-0x20003000 rw-p [anon]" \
	"a recorded layout names the VMA the replay lacks, and the one the recording kernel's profile does not give"
is "$("$PYTHON" -c '
import json, sys
for d in json.load(open(sys.argv[1]))["fidelity_diffs"]:
    print(d["kind"], d["recorded"])
' "$T/named.json")" "merged 0x20000000-0x20001000 rw-p [anon]
count 7 VMAs" "and the JSON carries both"

# Matching checkpoints: nothing to say.
{ base_map; echo 'ev 100 munmap 0x10001000 0x2000 0 0 0 0 = 0'; echo 'ck 100 4 5 1'; } | mk missing
"$V" --target sim --json "$T/missing.json" "$T/missing.vmt" >"$T/out"
is "$("$PYTHON" -c '
import json, sys
print(json.load(open(sys.argv[1]))["fidelity_diffs"])' "$T/missing.json")" "[]" "matching checkpoints: fidelity_diffs is empty"
done_testing

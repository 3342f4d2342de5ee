#!/bin/sh
# Z1 (docs/kernel-profiles.md) on the real kernels: populating read-only
# private anonymous memory maps the zero page and prepares no anon_vma, so
# the VMA, made PROT_NONE, merges with its unfaulted PROT_NONE neighbour on
# real 6.1 and 6.12 - and the simulator's 6.1 and 6.12 profiles say so too.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/vm/vm-setup.sh"

"$B/tests/replay/progs/mktrace" "$T/z1.vmt" <<'EOF2' || fail_all "mktrace cannot write traces"
process 100 1 0
map 100
end
ck 100 1 0 0
ev 100 mmap 0x20000000 0x3000 1 0x8032 -1 0 = 0x20000000
ev 100 mmap 0x20003000 0x3000 0 0x32 -1 0 = 0x20003000
ev 100 mprotect 0x20000000 0x3000 0 0 0 0 = 0
EOF2
outcome() {   # JSON: the outcome and VMA count of the mprotect
	python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["per_event"][2]; print(e["outcome"], e["vma_count"])' "$1" 2>&1
}
"$B/bin/vmreplay" --vm 6.1,6.12 -q --per-event --json "$T/real.json" "$T/z1.vmt" >"$T/out" 2>&1
ok $? "replayed in the 6.1 and 6.12 guests"
for k in "$K61:6.1" "$K612:6.12"; do
	rel=${k%:*} prof=${k#*:}
	is "$(outcome "$T/real-$rel.json")" "expand_next 1" "real $prof: the populated r-- VMA made --- merges with its neighbour"
	"$B/bin/vmreplay" --target sim --kernel "$prof" -q --per-event --json "$T/sim-$prof.json" "$T/z1.vmt" 2>/dev/null
	is "$(outcome "$T/sim-$prof.json")" "expand_next 1" "sim $prof says the same"
done
done_testing

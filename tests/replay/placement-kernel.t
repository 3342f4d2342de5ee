#!/bin/sh
# --placement kernel: the image's mmap area is replayed in a window below
# the replayer's own mappings, so this kernel places no-hint mmaps in the
# gaps of the recorded layout as the original kernel did: the recorded
# results below are what this kernel does natively (top-down first fit;
# 6.7+: PMD-multiple anonymous mappings THP aligned, MAP_STACK ones too;
# 6.8+: MAP_STACK is VM_NOHUGEPAGE, so it merges with no plain neighbour),
# and the replay, translated back by the window's offset, reproduces them.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
carries_asan "$V" && skip_all "vmreplay built with AddressSanitizer: its shadow reservations fill the window kernel placement lays out"

# libc 0x7f0000000000-0x7f0000210000 and ld 0x7f0000300000-0x7f0000303000,
# a 0xf0000 gap between them; a recorder page sits in the gap
cat <<'EOF2' | mk win
process 100 1 0
map 100
vma 0x555555554000 0x555555556000 r-x exe
vma 0x555555556000 0x555555557000 rw- exe
vma 0x555555558000 0x555555579000 rw- [heap]
vma 0x7f0000000000 0x7f0000200000 r-x libc
vma 0x7f0000200000 0x7f0000210000 rw- libc
vma 0x7f00002ff000 0x7f0000300000 rw- rec
vma 0x7f0000300000 0x7f0000302000 r-x ld
vma 0x7f0000302000 0x7f0000303000 rw- ld
vma 0x7ffffffde000 0x7ffffffff000 rw- [stack]
end
ck 100 1 9 1
ev 100 mmap 0x7f0000200000 0x1000 3 0x32 -1 0 = 0x7f0000200000
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x7f00002fe000
ev 100 mmap 0 0x100000 3 0x22 -1 0 = 0x7efffff00000
ev 100 mmap 0x7f0000250000 0x1000 3 0x22 -1 0 = 0x7f0000250000
ev 100 mmap 0 0x400000 3 0x22 -1 0 = 0x7effffa00000
ev 100 mmap 0 0x200000 3 0x20022 -1 0 = 0x7effff800000
ev 100 mmap 0 0x200000 3 0x22 -1 0 = 0x7effff600000
ev 100 mmap 0 0x300000 3 0x22 -1 0 = 0x7effff300000
ck 100 4 15 1
EOF2

# result - recorded result of each mmap, against the MAP_FIXED one's
deltas() {
	"$PYTHON" -c '
import json, sys
ev = [e for e in json.load(open(sys.argv[1]))["per_event"] if e["op"] == "mmap"]
w = ev[0]["result"] - ev[0]["recorded_result"]
print("window offset: %s, 2 MiB aligned: %s" % ("nonzero" if w else "zero", w % (2 << 20) == 0))
for e in ev[1:]:
    print(hex(e["recorded_result"]), hex(e["result"] - w))
' "$1"
}

# the recorded results are this (6.8+, THP configured) kernel's policy; on
# another only the gaps before the first PMD-sized mapping are comparable
new_policy=False
[ -d /sys/kernel/mm/transparent_hugepage ] &&
	new_policy=$("$PYTHON" -c 'import os; print(tuple(map(int, os.uname().release.split("-")[0].split(".")[:2])) >= (6, 8))')

"$V" -q --strict --placement kernel --per-event --json "$T/k.json" "$T/win.vmt"
st=$?
if [ "$new_policy" = True ]; then
	ok $st "kernel placement in the window: strict fidelity"
else
	skip "kernel placement in the window: the recorded counts are a 6.8+ kernel's"
fi
deltas "$T/k.json" >"$T/got"
cat >"$T/want" <<'EOF2'
window offset: nonzero, 2 MiB aligned: True
0x7f00002fe000 0x7f00002fe000
0x7efffff00000 0x7efffff00000
0x7f0000250000 0x7f0000250000
0x7effffa00000 0x7effffa00000
0x7effff800000 0x7effff800000
0x7effff600000 0x7effff600000
0x7effff300000 0x7effff300000
EOF2
if [ "$new_policy" = True ]; then
	is_file "$T/got" "$T/want" "no-hint mmaps land in the recorded gaps, THP aligned as on 6.8+"
else
	head -4 "$T/want" >"$T/want4"
	head -4 "$T/got" >"$T/got4"
	is_file "$T/got4" "$T/want4" "no-hint mmaps land in the recorded gaps (THP policy not checked before 6.8)"
fi
per_event "$T/k.json" | cut -d' ' -f2- >"$T/got"
cat >"$T/want" <<'EOF2'
mmap expand_next 8 ok
mmap new 9 ok
mmap new 10 ok
mmap new 11 ok
mmap new 12 ok
mmap new 13 ok
mmap new 14 ok
mmap expand_next 14 ok
EOF2
if [ "$new_policy" = True ]; then
	is_file "$T/got" "$T/want" "merges as in the original: none with the recorder page's filler or across MAP_STACK"
else
	skip "merges: the recorded ones are a 6.8+ kernel's"
fi
# exec: the new image gets a window of its own (the first image's fillers
# and window are gone); a recorder page splits its libm-ld gap in two
cat <<'EOF2' | mk exec
process 100 1 0
map 100
vma 0x555555554000 0x555555556000 r-x exe
vma 0x7f0000000000 0x7f0000200000 r-x libc
vma 0x7f0000300000 0x7f0000303000 r-x ld
vma 0x7ffffffde000 0x7ffffffff000 rw- [stack]
end
ck 100 1 4 0
ev 100 mmap 0x7f0000000000 0x1000 1 0x32 -1 0 = 0x7f0000000000
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x7f00002ff000
ev 100 execve 0 0 0 0 0 0 = 0 noreturn
process 100 1 1
map 100
vma 0x565656560000 0x565656562000 r-x newexe
vma 0x7e0000000000 0x7e0000100000 r-x libm
vma 0x7e0000180000 0x7e0000181000 rw- rec
vma 0x7e0000200000 0x7e0000203000 r-x ld
vma 0x7ffffffde000 0x7ffffffff000 rw- [stack]
end
ck 100 2 5 1
ev 100 mmap 0x7e0000200000 0x1000 1 0x32 -1 0 = 0x7e0000200000
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x7e00001ff000
ev 100 mmap 0 0x80000 3 0x22 -1 0 = 0x7e0000100000
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x7e00001fe000
ck 100 3 8 1
EOF2
"$V" -q --strict --placement kernel --per-event --json "$T/x.json" "$T/exec.vmt"
ok $? "kernel placement across exec: strict fidelity"
"$PYTHON" -c '
import json, sys
w = None
for e in json.load(open(sys.argv[1]))["per_event"]:
    if e["op"] != "mmap":
        print(e["op"]); continue
    if "MAP_FIXED" in e["call"]:
        w = e["result"] - e["recorded_result"]
    print(hex(e["recorded_result"]), hex(e["result"] - w), e["outcome"])
' "$T/x.json" >"$T/got"
cat >"$T/want" <<'EOF2'
0x7f0000000000 0x7f0000000000 new
0x7f00002ff000 0x7f00002ff000 new
execve
0x7e0000200000 0x7e0000200000 new
0x7e00001ff000 0x7e00001ff000 new
0x7e0000100000 0x7e0000100000 new
0x7e00001fe000 0x7e00001fe000 expand_next
EOF2
is_file "$T/got" "$T/want" "the exec'd image's no-hint mmaps fill its own gaps, around the recorder page"
done_testing

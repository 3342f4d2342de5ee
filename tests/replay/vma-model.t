#!/bin/sh
# The kernel back end tells merge outcomes from what it knows of its own
# VMAs where it can (backend_kernel.c, struct k_known) instead of asking the kernel
# after every call: each event's outcome and VMA count are the same as
# when every outcome comes from queries (VMREPLAY_NO_VMA_MODEL), and a brk
# loop is replayed with next to no queries.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
LOOP=$B/tests/replay/progs/brk_loop
need_built "$LOOP"

# brk grows and shrinks around what forgets the model (pages touched, an
# mprotect splitting the heap, a fork: the child's heap has its parent's
# anon_vma and no longer takes brk growth), a removal of a whole brk VMA,
# and munmaps of a placed mapping: whole, then a piece from its middle
{ base_map; cat <<'EOF2'
ev 100 brk 0 0 0 0 0 0 = 0x10102000
ev 100 brk 0x10103000 0 0 0 0 0 = 0x10103000
ev 100 brk 0x10104000 0 0 0 0 0 = 0x10104000
ev 100 brk 0x10105000 0 0 0 0 0 = 0x10105000
ev 100 brk 0x10103000 0 0 0 0 0 = 0x10103000
ev 100 brk 0x10104000 0 0 0 0 0 = 0x10104000
res 100 0x10100000 4 0f
ev 100 brk 0x10105000 0 0 0 0 0 = 0x10105000
ev 100 mprotect 0x10104000 0x1000 1 0 0 0 = 0
ev 100 brk 0x10106000 0 0 0 0 0 = 0x10106000
ev 100 brk 0x10107000 0 0 0 0 0 = 0x10107000
ev 100 brk 0x10108000 0 0 0 0 0 = 0x10108000
ev 100 brk 0x10105000 0 0 0 0 0 = 0x10105000
ev 100 brk 0x10104000 0 0 0 0 0 = 0x10104000
ev 100 brk 0x10106000 0 0 0 0 0 = 0x10106000
ev 100 mmap 0 0x4000 3 0x22 -1 0 = 0x20000000
ev 100 munmap 0x20000000 0x4000 0 0 0 0 = 0
ev 100 mmap 0 0x4000 3 0x22 -1 0 = 0x20000000
ev 100 munmap 0x20001000 0x1000 0 0 0 0 = 0
ev 100 brk 0x10107000 0 0 0 0 0 = 0x10107000
ev 100 fork 0 0 0 0 0 0 = 101
process 101 100 0
ev 101 brk 0x10108000 0 0 0 0 0 = 0x10108000
ev 101 brk 0x10109000 0 0 0 0 0 = 0x10109000
ev 101 brk 0x10106000 0 0 0 0 0 = 0x10106000
ev 100 brk 0x10108000 0 0 0 0 0 = 0x10108000
ev 100 brk 0x10109000 0 0 0 0 0 = 0x10109000
ev 101 exit_group 0 0 0 0 0 0 = 0 noreturn
ck 100 3 8 1
EOF2
} | mk mixed
"$LOOP" 100 "$T/loop.vmt" >/dev/null
ok $? "a brk loop recorded"
# will-it-scale's brk1: up a page from the heap's start and back, the heap
# VMA made and removed whole each time (its VMA below never takes it)
{ base_map; echo "ev 100 brk 0 0 0 0 0 0 = 0x10102000"
  echo "ev 100 brk 0x10100000 0 0 0 0 0 = 0x10100000"
  i=0; while [ $i -lt 500 ]; do
	echo "ev 100 brk 0x10101000 0 0 0 0 0 = 0x10101000"
	echo "ev 100 brk 0x10100000 0 0 0 0 0 = 0x10100000"
	i=$((i + 1))
  done; } | mk brk1

# i pid op outcome vma_count errno result
events() {
	"$PYTHON" -c '
import json, sys
for e in json.load(open(sys.argv[1]))["per_event"]:
    print(e["i"], e["pid"], e["op"], e["outcome"], e["vma_count"], e["errno"],
          e["result"] if e["op"] != "fork" else "(pid)")
' "$1"
}

for t in mixed loop brk1; do
	VMREPLAY_NO_VMA_MODEL=1 "$V" -q --per-event --json "$T/$t-q.json" "$T/$t.vmt" 2>/dev/null
	"$V" -q --per-event --json "$T/$t-m.json" "$T/$t.vmt" 2>/dev/null
	events "$T/$t-q.json" >"$T/$t-q"
	events "$T/$t-m.json" >"$T/$t-m"
	is_file "$T/$t-m" "$T/$t-q" "$t: every event's outcome and VMA count as from queries"
	# the model checked against the kernel wherever it answers (exit 3 if wrong)
	VMREPLAY_CHECK_VMA_MODEL=1 "$V" -q "$T/$t.vmt" 2>"$T/$t.err"
	is "$?:$(grep 'VMA model' "$T/$t.err")" "0:" "$t: the model agrees with the kernel on every call it answers"
done
# the mixed trace's brk grows are told apart (what the model must not guess)
is "$(awk '$3 == "brk" { print $4 }' "$T/mixed-m" | sort -u | tr '\n' ' ')" \
   "expand_prev new remove shrink unchanged " "brk expands, makes new VMAs, shrinks and removes"

# The loop: 1,700 brk calls; the queries left are the image's (counting
# its VMAs, placing its stand-ins), not one per call.
if carries_asan "$LOOP"; then
	skip "brk_loop built with AddressSanitizer: its map holds ASan's shadow, whose VMAs the replay queries too"
	skip "the same for brk1 (vmreplay built with AddressSanitizer)"
elif command -v strace >/dev/null 2>&1; then
	env -u VMREPLAY_CHECK_VMA_MODEL strace -f -qq -c -e trace=ioctl,pread64 -o "$T/st" "$V" -q "$T/loop.vmt"
	n=$(awk '$NF == "ioctl" || $NF == "pread64" { s += $4 } END { print s + 0 }' "$T/st")
	ok "$([ "$n" -lt 400 ]; echo $?)" "the brk loop's 1,700 calls take $n VMA queries (< 400)"
	env -u VMREPLAY_CHECK_VMA_MODEL strace -f -qq -c -e trace=ioctl,pread64 -o "$T/st1" "$V" -q "$T/brk1.vmt"
	n=$(awk '$NF == "ioctl" || $NF == "pread64" { s += $4 } END { print s + 0 }' "$T/st1")
	ok "$([ "$n" -lt 250 ]; echo $?)" "brk1's 1,000 calls take $n VMA queries (< 250; one a growth was 500 more)"
else
	skip "strace is not installed"
	skip "strace is not installed"
fi
done_testing

#!/bin/sh
# Nothing a replay does can take the machine's memory: the placeholders of
# the recorder's VMAs (a 1 TiB store window, a 256 MiB arena) are never
# populated by a replayed mlockall, MCL_FUTURE ends with a replayed exec,
# and past --mem-limit the replay stops with a clear error and exit 1,
# its results saying it is incomplete.  So is a replay in which a replayed
# process was killed.  Every replay here runs under a budget, so a failure
# cannot fill the machine (on a tree without --mem-limit each fails at once).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

complete() {
	"$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(d["complete"], d.get("incomplete_reason", ""))' "$1"
}

# brk N: N brk pairs on the standard heap, so the replay lasts long enough
# for the budget's watch (every 50 ms) to see it
brks() {
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) {
		print "ev 100 brk 0x10103000 0 0 0 0 0 = 0x10103000"
		print "ev 100 brk 0x10102000 0 0 0 0 0 = 0x10102000" } }'
}

# 1. A program that maps 32 MiB, touches 1 MiB and calls mlockall, in a
# process with the recorder's store window and arena: the replay holds
# the program's 32 MiB, never the placeholders (before: 1 TiB of shmem).
# A mapping placed right after the arena merged with it, as its edge page
# still lets it (the merged VMA is the program's: recorder_vmas 1).
{ cat <<'EOF2'
process 100 1 0
file 100 1 4194304 /tmp/t.lz4.vmrec-store.100
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x10100000 0x10102000 rw- [heap]
vma 0x30000000 0x30021000 rw- [stack]
vma 0x3e0000000000 0x3f0000000000 rw- rec shared file=1
vma 0x3f0000000000 0x3f0010000000 rw- rec
end
ck 100 1 5 2
ev 100 mmap 0x3f0010000000 0x1000 3 0x100022 -1 0 = 0x3f0010000000
ck 100 4 5 1
ev 100 mmap 0 0x2000000 3 0x22 -1 0 = 0x200000000000
res 100 0x200000000000 8 ff
ev 100 mlockall 1 0 0 0 0 0 = 0
ck 100 4 6 1
ev 100 munmap 0x200000000000 0x2000000 0 0 0 0 = 0
ck 100 4 5 1
EOF2
} | mk lockall
for args in "" "--threads"; do
	"$V" -q --strict --mem-limit 256M --json "$T/l.json" $args "$T/lockall.vmt" 2>"$T/err"
	is "$?:$(cat "$T/err")" "0:" "mlockall $args: replayed within 256 MiB, every checkpoint as recorded"
	is "$(complete "$T/l.json")" "True " "mlockall $args: the results say complete"
done

# 2. mlockall(MCL_CURRENT|MCL_FUTURE), then an exec: the new image's 1 GiB
# mapping is not populated (the replayer does not exec; it unlocks)
{ base_map; cat <<'EOF2'
ev 100 mlockall 3 0 0 0 0 0 = 0
ev 100 execve 0 0 0 0 0 0 = 0 noreturn
process 100 1 1
map 100
vma 0x60000000 0x60002000 r-x newexe
vma 0x61000000 0x61001000 rw- [heap]
vma 0x70000000 0x70021000 rw- [stack]
end
ck 100 2 3 0
ev 100 mmap 0 0x40000000 3 0x22 -1 0 = 0x200000000000
EOF2
awk 'BEGIN { for (i = 0; i < 100000; i++) {
	print "ev 100 brk 0x61002000 0 0 0 0 0 = 0x61002000"
	print "ev 100 brk 0x61001000 0 0 0 0 0 = 0x61001000" } }'
} | mk future
"$V" -q --mem-limit 256M --json "$T/f.json" "$T/future.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "MCL_FUTURE ends at a replayed exec: 1 GiB mapped, not populated"

# 3. Past the budget: 512 MiB populated by the program's own MAP_POPULATE
{ base_map; echo "ev 100 mmap 0 0x20000000 3 0x8022 -1 0 = 0x200000000000"; brks 150000; } | mk big
"$V" -q --mem-limit 128M --json "$T/b.json" "$T/big.vmt" 2>"$T/err"
st=$?
is "$st" 1 "past --mem-limit: exit 1"
like "$(cat "$T/err")" "more than its memory budget of 128 MiB \\(--mem-limit\\), after [0-9]+ of 300001 events: stopped" \
	"past --mem-limit: the message says the budget and where the replay was"
is "$(grep -c . "$T/err")" 1 "past --mem-limit: one message (the killed replayer is not reported again)"
like "$(complete "$T/b.json")" "^False .*more than its memory budget" "past --mem-limit: the results say incomplete, and why"
"$V" -q --mem-limit none "$T/big.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "--mem-limit none: no budget"

# the simulator watches itself (every 65536 steps)
{ base_map; brks 40000; } | mk sim
"$V" -q --target sim --mem-limit 1M --json "$T/s.json" "$T/sim.vmt" 2>"$T/err"
st=$?
is "$st" 1 "simulator past --mem-limit: exit 1"
like "$(cat "$T/err")" "more than its memory budget of 1 MiB" "simulator: the budget named"

# 4. A replayed process killed midway: exit 1, the results say so
{ base_map; brks 300000; } | mk long
"$V" -q --duration 30 --json "$T/k.json" "$T/long.vmt" 2>"$T/err" &
pid=$!
n=0
while [ -z "$(pgrep -P $pid)" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
sleep 0.2
kill -9 $(pgrep -P $pid) 2>/dev/null
wait $pid
is "$?" 1 "a replayer killed: exit 1"
like "$(cat "$T/err")" "the replay of pid 100 ended abnormally \\(signal 9\\); its remaining events are skipped" \
	"a replayer killed: said"
like "$(complete "$T/k.json")" "^False .*ended abnormally" "a replayer killed: the results say incomplete"
"$B/bin/vmreport" "$T/k.json" "$T/k.json" >"$T/rep" 2>&1
like "$(grep incomplete: "$T/rep")" "incomplete: .*ended abnormally.*; its events are compared as far as they go" \
	"vmreport says why a column is incomplete"

# bad sizes
for bad in "" x 12Q 200% -1; do
	"$V" -q --mem-limit "$bad" "$T/sim.vmt" 2>"$T/err"
	is "$?:$(cat "$T/err")" "2:vmreplay: --mem-limit: not a size (512M, 2G, 25%, none): $bad" "--mem-limit '$bad' refused"
done
done_testing

#!/bin/sh
# --threads: calls that depend on each other across threads keep their
# recorded order in every run: a range mapped by one thread and changed by
# the other, neighbours that merge or split together, brk against brk, and a
# checkpoint after both threads' work.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

# event i (from 0): the clone is 0, then 5 per round, then the brk calls
{ base_map
echo "ev 100 clone 0x3d0f00 0 0 0 0 0 = 101 thread"
for i in 0 1 2 3 4 5 6 7; do
	a=$((0x20000000 + i * 0x10000)) b=$((0x28000000 + i * 0x10000))
	printf 'ev 100 mmap 0 0x3000 3 0x22 -1 0 = %#x\n' $a
	printf 'ev 100 mprotect %#x 0x1000 1 0 0 0 = 0 tid=101\n' $((a + 0x1000))
	printf 'ev 100 mmap 0 0x1000 3 0x22 -1 0 = %#x tid=101\n' $b
	printf 'ev 100 munmap %#x 0x1000 0 0 0 0 = 0\n' $((a + 0x2000))
	printf 'ev 100 mprotect %#x 0x1000 1 0 0 0 = 0 tid=101\n' $a
done
cat <<'EOF2'
ev 100 brk 0 0 0 0 0 0 = 0x10102000
ev 100 brk 0x10104000 0 0 0 0 0 = 0x10104000 tid=101
ev 100 brk 0x10106000 0 0 0 0 0 = 0x10106000
ck 100 3 22 1
EOF2
} | mk dep

# pairs "i<j": event i must come before event j in the replay's own order
pairs=""
for i in 0 1 2 3 4 5 6 7; do
	m=$((1 + 5 * i))
	# mmap < mprotect (overlap), mprotect < munmap (they touch), mmap < mprotect (they touch)
	pairs="$pairs $m<$((m + 1)) $((m + 1))<$((m + 3)) $m<$((m + 4))"
done
pairs="$pairs 41<42 42<43"

{ echo "100 clone skipped ok"
for i in 0 1 2 3 4 5 6 7; do
	printf '100 mmap new ok\n100 mprotect split ok\n100 mmap new ok\n100 munmap remove ok\n100 mprotect expand_next ok\n'
done
printf '100 brk unchanged ok\n100 brk expand_prev ok\n100 brk expand_prev ok\n'
} >"$T/want"

bad_rc=0 bad_outcomes=0 bad_order=0
for run in $(seq 20); do
	"$V" -q --strict --threads --per-event --json "$T/o.json" "$T/dep.vmt" || bad_rc=$((bad_rc + 1))
	per_event "$T/o.json" | awk '{ print $1, $2, $3, $5 }' >"$T/got"
	cmp -s "$T/got" "$T/want" || { bad_outcomes=$((bad_outcomes + 1)); cp "$T/got" "$T/got.bad"; }
	"$PYTHON" -c '
import json, sys
ev = json.load(open(sys.argv[1]))["per_event"]
bad = [p for p in sys.argv[2:] if not ev[int(p.split("<")[0])]["order"] < ev[int(p.split("<")[1])]["order"]]
if bad:
    print("# out of order:", " ".join(bad))
    sys.exit(1)
' "$T/o.json" $pairs || bad_order=$((bad_order + 1))
done
is "$bad_rc" 0 "--strict: the checkpoint matched and no result differed in all 20 runs"
is "$bad_outcomes" 0 "every call's outcome as recorded in all 20 runs"
[ "$bad_outcomes" -eq 0 ] || diff "$T/want" "$T/got.bad" | sed 's/^/# /'
is "$bad_order" 0 "dependent calls kept their order in all 20 runs"
done_testing

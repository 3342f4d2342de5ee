#!/bin/sh
# --threads: each recorded thread is replayed by its own thread, in the
# recorded order where it matters; a fork issued by a non-main thread still
# starts the child's replay.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000
ev 100 clone 0x3d0f00 0 0 0 0 0 = 101 thread
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x21000000 tid=101
ev 100 mprotect 0x20001000 0x1000 1 0 0 0 = 0
ev 100 munmap 0x21000000 0x1000 0 0 0 0 = 0 tid=101
ev 100 fork 0 0 0 0 0 0 = 200 tid=101
process 200 100 0
ev 200 munmap 0x20000000 0x1000 0 0 0 0 = 0
ck 200 3 8 1
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x22000000
ck 100 3 10 1
EOF2
} | mk thr

cat >"$T/want" <<'EOF2'
100 mmap new 6 ok
100 clone skipped 6 ok
100 mmap new 7 ok
100 mprotect split 9 ok
100 munmap remove 8 ok
100 fork unchanged 8 ok
200 munmap remove 7 ok
100 mmap new 9 ok
EOF2
"$V" -q --strict --per-event --json "$T/o.json" "$T/thr.vmt"
ok $? "default: checkpoints match"
per_event "$T/o.json" >"$T/got"
is_file "$T/got" "$T/want" "default: outcomes"
order() { "$PYTHON" -c 'import json,sys; print(" ".join(str(e["order"]) for e in json.load(open(sys.argv[1]))["per_event"]))' "$1"; }
is "$(order "$T/o.json")" "1 2 3 4 5 6 7 8" "default: recorded order"

# --threads: the two threads' calls before the fork may interleave (so the
# running VMA counts may differ); the fork waits for all of them
"$V" -q --strict --threads --per-event --json "$T/o.json" "$T/thr.vmt"
ok $? "--threads: checkpoints match"
per_event "$T/o.json" | awk '{ print $1, $2, $3, $5 }' >"$T/got"
awk '{ print $1, $2, $3, $5 }' "$T/want" >"$T/want3"
is_file "$T/got" "$T/want3" "--threads: outcomes"
is "$(order "$T/o.json" | awk '{ f = $6; ok = f > $1 && f > $2 && f > $3 && f > $4 && f > $5 && $7 > f && $8 > f && $4 > $1 && $5 > $3
	print ok ? "fork after the calls before it" : $0 }')" "fork after the calls before it" "--threads: order where it matters"

# the calls of tid 101 really come from another thread of the replayer
if command -v strace >/dev/null; then
	who() {   # who MODE: the tids issuing the mmap at 0x20000000 and the munmap at 0x21000000
		ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=mmap,munmap -o "$T/st" "$V" -q $1 "$T/thr.vmt"
		a=$(grep 'mmap(0x20000000' "$T/st" | awk '{print $1}')
		b=$(grep 'munmap(0x21000000' "$T/st" | awk '{print $1}')
		[ -n "$a" ] && [ -n "$b" ] && { [ "$a" = "$b" ] && echo same || echo different; }
	}
	is "$(who --threads)" different "--threads: tid 101's calls come from another thread"
	is "$(who "")" same "default: one thread replays the whole process"
fi
done_testing

#!/bin/sh
# A full disk: the recorded program never dies of it (SIGBUS from a store
# page the disk could not hold), keeps its exit status, and the tree warns
# once, not once per process; the trace counts what it lost.  What was stored stays, and vmrec --finish
# turns it into a trace once there is room.  Needs root for a small tmpfs.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
LOOP=$B/tests/replay/progs/brk_loop
need_built "$LOOP" "$B/bin/vmrec" "$LIB" "$P/vfork_full"
[ "$(id -u)" = 0 ] || skip_all "needs root to mount a small tmpfs"
M=$T/mnt
mkdir -p "$M"
mount -t tmpfs -o size=12m tmpfs "$M" 2>/dev/null || skip_all "cannot mount a tmpfs here"
trap 'umount "$M" 2>/dev/null' EXIT
fill() { rm -f "$M/fill"; head -c $((12 * 1024 * 1024 - $1 * 1024)) /dev/zero >"$M/fill" 2>/dev/null; }

# less room than the store's first extent: the root cannot record; every
# process of the tree runs as usual and one line says so
fill 64
LD_PRELOAD=$LIB VMREC_OUT=$M/a.lz4 sh -c 'ls / >/dev/null; sh -c "ls / >/dev/null"; exit 3' 2>"$T/err1"
is "$?" 3 "no room at all: the exit status is the program's"
is "$(cat "$T/err1")" "vmrec: cannot open $M/a.lz4: not recording" "no room at all: one line for the whole tree"

# room for the first extent, not for the second: the store cannot grow
fill 4600
"$B/bin/vmrec" -o "$M/b.lz4" -- sh -c "$LOOP 100000 >/dev/null; exit 3" 2>"$T/err2"
is "$?" 3 "the store filling up kills nothing: vmrec returns the program's status (main: SIGBUS)"
is "$(grep -c 'cannot write the trace' "$T/err2")" 1 "the store filling up: warned once"
store=$(ls "$M"/b.lz4.vmrec-store.* 2>/dev/null)
ok "$([ -n "$store" ]; echo $?)" "what was recorded stays in the store"
grep -q "the records stay in $store (vmrec --finish $store)" "$T/err2"
ok $? "the message says where the records are and how to finish them"
rm -f "$M/fill"
"$B/bin/vmrec" --finish "$store"
is "$?" 0 "vmrec --finish once there is room"
# the records that found no room are counted: each slab keeps room for
# its writer's END, which says how many its process lost
"$TC" -g "$M/b.lz4" >"$T/gaps" 2>"$T/gaps.err"
is "$?" 0 "every seq no record holds is counted lost ($(cat "$T/gaps"))"
like "$(cat "$T/gaps")" " lost " "the ENDs say how many were lost"
ok "$(awk '{ print ($4 > 0) ? 0 : 1 }' "$T/gaps")" "more than none were lost (the store was full)"
"$B/bin/vmtrace" check "$M/b.lz4" >"$T/check" 2>&1
is "$?" 0 "the finished trace passes check ($(head -c 80 "$T/check"))"

# a vfork child writes its records in a chunk of its own: in a full store
# they are lost, and counted by its parent (whose memory it runs on),
# whose slab still has room for its END
rm -f "$M"/*
fill 4600
"$B/bin/vmrec" -o "$M/c.lz4" -- "$P/vfork_full" 600000 >/dev/null 2>"$T/err3"
is "$?" 3 "vfork child in a full store: the program's status"
store=$(ls "$M"/c.lz4.vmrec-store.* 2>/dev/null)
rm -f "$M/fill"
"$B/bin/vmrec" --finish "$store"
is "$?" 0 "vfork child in a full store: vmrec --finish once there is room"
top=$("$TC" -a "$M/c.lz4" | awk '$1 == "process" && $4 == 0 { print $2; exit }')
"$TC" -a "$M/c.lz4" | awk -v p="$top" '$1 == "end" && $2 == p' >"$T/end3"
ok "$(awk '{ print ($8 >= 3) ? 0 : 1 }' "$T/end3")" \
	"the parent's END counts its vfork child's lost records ($(cat "$T/end3"))"
"$TC" -g "$M/c.lz4" >"$T/gaps3" 2>/dev/null
is "$?" 0 "every seq no record holds is counted lost ($(cat "$T/gaps3"))"
done_testing

#!/bin/sh
# The recorder's own VMAs (VMT_VMA_RECORDER in the map) shaped the
# recording: a program's MAP_FIXED_NOREPLACE onto one failed with EEXIST.
# The replay holds them with placeholders of the same range, protection
# and kind, so such calls replay as recorded, and a call over one is not
# skipped as the replayer's own memory; the simulator models them as VMAs
# it does not count.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

# a recorder memfd (shared, file-backed) of 4 pages and an anonymous one;
# NOREPLACE into either failed with EEXIST when recorded
{ cat <<'EOF2'
process 100 1 0
file 100 1 16384 /memfd:vmrec
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x10001000 0x10003000 rw-
vma 0x10100000 0x10102000 rw- [heap]
vma 0x30000000 0x30021000 rw- [stack]
vma 0x40000000 0x40002000 r-x [vdso]
vma 0x50000000 0x50004000 rw- rec shared file=1
vma 0x50010000 0x50011000 rw- rec
end
ck 100 1 7 2
ev 100 mmap 0x50002000 0x1000 3 0x100022 -1 0 = -1 err=17
ev 100 mmap 0x50010000 0x1000 3 0x100022 -1 0 = -1 err=17
ev 100 mmap 0x50011000 0x1000 3 0x100022 -1 0 = 0x50011000
ev 100 munmap 0x50011001 0x1000 0 0 0 0 = -1 err=22
ck 100 4 8 2
EOF2
} | mk rec
for args in "" "--threads" "--target sim"; do
	"$V" -q --strict --per-event --json "$T/out.json" $args "$T/rec.vmt" 2>"$T/err"
	is "$?:$(cat "$T/err")" "0:" "vmreplay $args: every call as recorded"
	# op, outcome where the call failed, mismatch
	per_event "$T/out.json" | awk '{ print $2, ($3 == "failed" ? $3 : "done"), $5 }' >"$T/got"
	cat >"$T/want" <<'EOF2'
mmap failed ok
mmap failed ok
mmap done ok
munmap failed ok
EOF2
	is_file "$T/got" "$T/want" "vmreplay $args: EEXIST onto the recorder's VMAs, the unaligned munmap beside one not skipped"
done

# the recorder's trace store: a 1 TiB MAP_SHARED|MAP_NORESERVE window; its
# placeholder must not ask for 1 TiB of commit (every real recording's
# replay warned "cannot hold the recorder's mapping ... Cannot allocate
# memory" under the default overcommit heuristic)
{ cat <<'EOF2'
process 100 1 0
file 100 1 4194304 /tmp/t.lz4.vmrec-store.100
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
vma 0x3e0000000000 0x3f0000000000 rw- rec shared file=1
end
ck 100 1 3 1
ev 100 mmap 0x3f0000000000 0x1000 3 0x100022 -1 0 = 0x3f0000000000
ck 100 2 4 1
EOF2
} | mk store
for args in "" "--target sim"; do
	"$V" -q --strict $args "$T/store.vmt" 2>"$T/err"
	is "$?:$(cat "$T/err")" "0:" "vmreplay $args: the store's 1 TiB window is held without a word"
done
done_testing

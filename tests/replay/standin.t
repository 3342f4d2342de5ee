#!/bin/sh
# File-backed mappings get stand-in files: one sparse file per recorded file
# identity, so mappings of the same file at contiguous offsets merge and
# mappings of different files do not; the directory is gone afterwards.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
file 100 1 16384 /usr/lib/one.so
file 100 2 8192 /usr/lib/two.so
ev 100 mmap 0 0x2000 1 0x2 3 0 = 0x20000000 file=1
ev 100 mmap 0x20002000 0x2000 1 0x12 3 0x2000 = 0x20002000 file=1
ev 100 mmap 0x20004000 0x2000 1 0x12 4 0 = 0x20004000 file=2
ev 100 mmap 0x20006000 0x1000 1 0x12 3 0x3000 = 0x20006000 file=1
ck 100 4 9 1
EOF2
} | mk files

mkdir "$T/tmp"
TMPDIR="$T/tmp" "$V" -q --strict --per-event --json "$T/out.json" "$T/files.vmt"
ok $? "checkpoints match"
per_event "$T/out.json" >"$T/got"
cat >"$T/want" <<'EOF2'
100 mmap new 6 ok
100 mmap expand_prev 6 ok
100 mmap new 7 ok
100 mmap new 8 ok
EOF2
is_file "$T/got" "$T/want" "same file merges at contiguous offsets, another file does not"
is "$(ls -A "$T/tmp")" "" "the stand-in directory is removed"

# --real-files maps the recorded paths
printf 'x%.0s' $(seq 1 100) >"$T/real"
{ base_map; cat <<EOF2
file 100 1 100 $T/real
ev 100 mmap 0 0x1000 1 0x2 3 0 = 0x20000000 file=1
ck 100 4 7 1
EOF2
} | mk real
"$V" -q --strict --real-files "$T/real.vmt" 2>"$T/err"
ok $? "--real-files: the recorded path is mapped"
is "$(cat "$T/err")" "" "--real-files: no complaint"
rm "$T/real"
"$V" -q --real-files "$T/real.vmt" 2>"$T/err"
is "$(cat "$T/err")" "vmreplay: $T/real: No such file or directory (a stand-in is mapped instead)" "--real-files: a missing file is named"

# the same missing file mapped by two processes (one identity): named once
{ base_map; cat <<EOF2
file 100 1 100 $T/real
ev 100 mmap 0 0x1000 1 0x2 3 0 = 0x20000000 file=1
ev 100 fork 0 0 0 0 0 0 = 101
process 101 100 0
file 101 1 100 $T/real
ev 101 mmap 0 0x1000 1 0x2 3 0 = 0x21000000 file=1
EOF2
} | mk twice
"$V" -q --real-files "$T/twice.vmt" 2>"$T/err"
is "$(cat "$T/err")" "vmreplay: $T/real: No such file or directory (a stand-in is mapped instead)" "--real-files: a missing file mapped twice is named once"

# files never mapped (an execve's failed PATH lookup, the recorder's own
# memfd in the map) need neither a stand-in nor the real path
{ cat <<EOF2
process 100 1 0
file 100 1 0 /memfd:vmrec-seq (deleted)
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
vma 0x50000000 0x50001000 rw-s rec file=1
end
ck 100 1 3 1
file 100 2 0 /nowhere/prog
ev 100 execve 0 0 0 0 0 0 = -1 2 file=2
ck 100 3 3 1
EOF2
} | mk unmapped
mkdir "$T/tmp2"
TMPDIR="$T/tmp2" "$V" -q --strict --real-files "$T/unmapped.vmt" 2>"$T/err"
ok $? "unmapped files: checkpoints match"
is "$(cat "$T/err")" "" "--real-files: no complaint about files nothing maps"
# --real-files opens regular files only, never blocking: a FIFO is refused
mkfifo "$T/fifo"
{ base_map; cat <<EOF2
file 100 1 8192 $T/fifo
ev 100 mmap 0 0x2000 1 0x2 3 0 = 0x20000000 file=1
ck 100 4 7 1
EOF2
} | mk fifo
timeout 60 "$V" -q --strict --real-files "$T/fifo.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:vmreplay: $T/fifo: not a regular file, refused (a stand-in is mapped instead)" \
	"--real-files: a FIFO is refused, not waited on (124: killed by the timeout)"
done_testing

#!/bin/sh
# --placement recorded moves each address space by its own offset: a
# process image with a range this replayer cannot use (below mmap_min_addr)
# moves by 1 GiB, its fork child keeps that offset (it inherits the
# mappings), while its exec'd image and another process stay at offset 0.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

cat <<'EOF2' | mk units
process 100 1 0
map 100
vma 0x1000 0x2000 r-- low
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
end
ck 100 1 3 0
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x20000000
ev 100 fork 0 0 0 0 0 0 = 101
process 101 100 0
ev 101 mmap 0 0x1000 3 0x22 -1 0 = 0x21000000
ck 101 4 5 0
ev 101 exit_group 0 0 0 0 0 0 = 0 noreturn
ev 100 execve 0 0 0 0 0 0 = 0 noreturn
process 100 1 1
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
end
ck 100 2 2 0
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x20000000
ck 100 3 3 0
process 200 1 0
map 200
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
end
ev 200 mmap 0 0x1000 3 0x22 -1 0 = 0x22000000
ck 200 4 3 0
EOF2

"$V" -q --strict --per-event --json "$T/o.json" "$T/units.vmt" 2>"$T/err"
ok $? "every checkpoint matches"
is "$(cat "$T/err")" "" "no message: every image was placed"
"$PYTHON" -c '
import json, sys
for e in json.load(open(sys.argv[1]))["per_event"]:
    if e["op"] == "mmap":
        print(e["pid"], hex(e["result"] - e["recorded_result"]))
' "$T/o.json" >"$T/got"
cat >"$T/want" <<'EOF2'
100 0x40000000
101 0x40000000
100 0x0
200 0x0
EOF2
is_file "$T/got" "$T/want" "offset per address space: moved image, its fork child, its exec'd image, another process"
# an image no offset can place: a message names it, the replay goes on, and
# the other process still gets offset 0
cat <<'EOF2' | mk bad
process 300 1 0
map 300
vma 0x10000 0x7f0000000000 r-- huge
vma 0x7ffffffde000 0x7ffffffff000 rw- [stack]
end
ev 300 mmap 0 0x1000 3 0x22 -1 0 = 0x7f0000100000
process 400 1 0
map 400
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
end
ev 400 mmap 0 0x1000 3 0x22 -1 0 = 0x20000000
ck 400 4 3 0
EOF2
"$V" -q --per-event --json "$T/b.json" "$T/bad.vmt" 2>"$T/err"
is $? 0 "unplaceable image: the replay goes on"
cat >"$T/want" <<EOF2
vmreplay: $T/bad.vmt: the recorded layout of pid 300 cannot be placed beside the replayer's own memory at any offset; mappings that collide will fail
vmreplay: $T/bad.vmt: pid 300: cannot place the initial mapping 0x10000-0x7f0000000000 huge: File exists
EOF2
is_file "$T/err" "$T/want" "unplaceable image: one message names it, one the mapping"
"$PYTHON" -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = [e for e in d["per_event"] if e["pid"] == 400][0]
print(hex(e["result"] - e["recorded_result"]), d["metrics"]["vmreplay.fidelity.checkpoints_matched"])
' "$T/b.json" >"$T/got"
is "$(cat "$T/got")" "0x0 [1]" "the other process keeps offset 0 and its checkpoint"
# a SysV attachment's recorded range counts too (its size is its file's)
cat <<'EOF2' | mk shm
process 100 1 0
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
end
file 100 1 8192 SYSV00000000
ev 100 shmat 7 0 0 0 0 0 = 0x1000 file=1
ck 100 4 3 0
EOF2
"$V" -q --strict --per-event --json "$T/s.json" "$T/shm.vmt"
ok $? "shmat below mmap_min_addr: the image moves and the checkpoint matches"
got=$("$PYTHON" -c 'import json,sys; e=json.load(open(sys.argv[1]))["per_event"][0]; print(e["outcome"], hex(e["result"] - e["recorded_result"]))' "$T/s.json")
is "$got" "new 0x40000000" "shmat: attached 1 GiB up, with the rest of its image"
# a fork child's later mapping counts for the address space it shares with
# its parent: the parent's mappings move with it (one the kernel placed low;
# a MAP_FIXED one would replay at its address, tests/replay/low-addresses.t)
cat <<'EOF2' | mk child
process 500 1 0
map 500
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
end
ev 500 mmap 0 0x1000 3 0x22 -1 0 = 0x20000000
ev 500 fork 0 0 0 0 0 0 = 501
process 501 500 0
ev 501 mmap 0 0x1000 3 0x22 -1 0 = 0x2000
ck 501 4 4 0
ev 501 exit_group 0 0 0 0 0 0 = 0 noreturn
ck 500 4 3 0
EOF2
"$V" -q --strict --per-event --json "$T/c.json" "$T/child.vmt"
ok $? "a child's low mapping: every checkpoint matches"
"$PYTHON" -c '
import json, sys
for e in json.load(open(sys.argv[1]))["per_event"]:
    if e["op"] == "mmap":
        print(e["pid"], hex(e["result"] - e["recorded_result"]))
' "$T/c.json" >"$T/got"
printf '500 0x40000000\n501 0x40000000\n' >"$T/want"
is_file "$T/got" "$T/want" "the parent moves with its child's later mapping"
done_testing

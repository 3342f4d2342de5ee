#!/bin/sh
# Bad input: a one-line message naming the file and the problem, a non-zero
# exit, never a crash; a truncated or corrupt trace replays what was
# complete (exit 1).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000
ck 100 4 7 1
flush
ev 100 munmap 0x20000000 0x3000 0 0 0 0 = 0
ck 100 4 6 1
EOF2
} | mk whole
cp "$T/whole.vmt" "$T/cut.vmt"
size=$(wc -c <"$T/cut.vmt")
truncate -s $((size - 10)) "$T/cut.vmt"

"$V" "$T/cut.vmt" >"$T/out" 2>"$T/err"
is $? 1 "truncated: exit 1"
sed -n 1p "$T/err" | grep -q "^vmreplay: $T/cut.vmt: truncated: .*; replaying the 1 complete events before it$"
ok $? "truncated: the message names the file and what is replayed"
is "$(grep '^fidelity: check' "$T/out")" "fidelity: checkpoints matched 2/2, result mismatches 0, skipped 0, unplaceable 0" "truncated: the complete part replays faithfully"

# one flipped byte inside the second chunk
cp "$T/whole.vmt" "$T/bad.vmt"
printf '\377\377\377\377' | dd of="$T/bad.vmt" bs=1 seek=$((size - 12)) conv=notrunc 2>/dev/null
"$V" -q "$T/bad.vmt" 2>"$T/err"
is $? 1 "corrupt: exit 1"
grep -q "^vmreplay: $T/bad.vmt: corrupt" "$T/err"
ok $? "corrupt: the message names the file ($(head -1 "$T/err"))"

# a newer format version (the u32 after "VMRC" in the first frame)
cp "$T/whole.vmt" "$T/v9.vmt"
printf '\011' | dd of="$T/v9.vmt" bs=1 seek=12 conv=notrunc 2>/dev/null
"$V" "$T/v9.vmt" 2>"$T/err"
is $? 2 "unknown format version: exit 2"
is "$(cat "$T/err")" "vmreplay: $T/v9.vmt: trace format version 9 is not supported (this reader reads versions 1 to 6)" "unknown format version: message"

head -c 200 /bin/sh >"$T/elf.vmt"
"$V" "$T/elf.vmt" 2>"$T/err"
is $? 2 "not a trace: exit 2"
is "$(cat "$T/err")" "vmreplay: $T/elf.vmt: not a vmrec trace (bad magic)" "not a trace: message"

: >"$T/empty.vmt"
"$V" "$T/empty.vmt" 2>"$T/err"
is $? 2 "empty: exit 2"
is "$(cat "$T/err")" "vmreplay: $T/empty.vmt: empty file" "empty: message"

"$V" "$T/missing.vmt" 2>"$T/err"
is $? 2 "missing: exit 2"
is "$(cat "$T/err")" "vmreplay: $T/missing.vmt: No such file or directory" "missing: message"

"$V" --target sim --kernel 0.1 "$T/whole.vmt" 2>"$T/err"
is $? 2 "unknown kernel version: exit 2"
grep -q "^vmreplay: --kernel 0.1: unknown kernel version (known: .*host" "$T/err"
ok $? "unknown kernel version: the known ones are listed"

"$V" --repeat 0 "$T/whole.vmt" 2>"$T/err"
is $? 2 "--repeat 0: exit 2"
is "$(head -1 "$T/err")" "vmreplay: --repeat: not a positive count: 0" "--repeat 0: message"

# MAP_FIXED over a mapping the replay itself made is allowed
{ base_map; cat <<'EOF2'
ev 100 mmap 0x20000000 0x1000 3 0x32 -1 0 = 0x20000000
ev 100 mmap 0x20000000 0x1000 3 0x32 -1 0 = 0x20000000
ck 100 4 7 1
EOF2
} | mk fixed
"$V" -q "$T/fixed.vmt" 2>"$T/err"
is $? 0 "MAP_FIXED over the replay's own mapping is allowed"
is "$(cat "$T/err")" "" "and needs no message"

# Recorded addresses where this replayer has its own memory (no ASLR: its
# executable is at 0x555555554000): the whole layout moves by one offset.
if setarch -R true 2>/dev/null; then
	{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x2000 3 0x22 -1 0 = 0x555555554000
ev 100 mprotect 0x555555555000 0x1000 1 0 0 0 = 0
ck 100 4 8 1
EOF2
	} | mk collide
	setarch -R "$V" -q --strict --per-event --json "$T/c.json" "$T/collide.vmt"
	ok $? "colliding layout: replayed at an offset with perfect fidelity"
	is "$("$PYTHON" -c 'import json,sys; e=json.load(open(sys.argv[1]))["per_event"][0]; print(e["result"] != e["recorded_result"], (e["result"] - e["recorded_result"]) % (1 << 30))' "$T/c.json")" \
	   "True 0" "colliding layout: moved by a whole number of GiB"
fi
done_testing

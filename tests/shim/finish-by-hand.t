#!/bin/sh
# vmrec --finish STORE trusts nothing it reads: the trace goes where -o
# says (before or after --finish) or where the store's own name says,
# never where the store's contents say; a store some process still maps
# (a recording that has not ended) is refused; a finished trace that
# breaks the trace rules is said, with status 1, and the store stays.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec VT=$B/bin/vmtrace
need_built "$V" "$VT" "$P/fatal_after"
cd "$T" || exit 1

# a store left by a recording killed by hand: STORE's path
killed_store() {
	rm -f "$1".vmrec-store.*
	record "$1" "$P/fatal_after" kill 2>/dev/null
	ls "$1".vmrec-store.* 2>/dev/null | head -1
}

# --- a recording still running is refused -----------------------------
LD_PRELOAD=$LIB VMREC_OUT=$T/live.lz4 sleep 60 &
pid=$!
for _ in $(seq 100); do
	store=$(ls live.lz4.vmrec-store.* 2>/dev/null | head -1)
	[ -n "$store" ] && break
	sleep 0.1
done
"$V" --finish "$store" 2>err
is "$?" 2 "a running recording: refused, status 2"
like "$(cat err)" "still in use by pid $pid" "a running recording: says which process has it"
ok "$([ ! -e live.lz4 ] && [ -e "$store" ]; echo $?)" "a running recording: no trace made, the store stays"
kill -9 $pid
wait $pid 2>/dev/null
"$V" --finish "$store" 2>err
is "$?:$(cat err)" "0:" "the same store once the program is dead: finished"
like "$("$VT" check live.lz4)" "OK: " "and its trace checks OK"

# the launcher drains the store while its program runs: refused too
"$V" -o launched.lz4 -- sleep 60 &
vpid=$!
for _ in $(seq 100); do
	store=$(ls launched.lz4.vmrec-store.* 2>/dev/null | head -1)
	[ -n "$store" ] && break
	sleep 0.1
done
"$V" --finish "$store" 2>err
is "$?" 2 "a store vmrec's launcher holds: refused"
kill $(pgrep -P $vpid) 2>/dev/null
wait $vpid 2>/dev/null
like "$("$VT" check launched.lz4)" "OK: " "the launcher still finished its own trace"

# --- the output comes from -o or the store's name, never its contents ---
store=$(killed_store "$T/k.lz4")
echo precious >victim
# the head page's path field (80 bytes in) names the victim instead
python3 - "$store" "$T/victim" <<'EOF'
import sys
with open(sys.argv[1], "r+b") as f:
    f.seek(80)
    f.write(sys.argv[2].encode() + b"\0")
EOF
"$V" --finish "$store" 2>err
is "$?:$(cat err)" "0:" "a store naming another path inside: finished"
is "$(cat victim)" precious "the path inside the store is not written"
like "$("$VT" check k.lz4)" "OK: " "the trace goes where the store's name says"

store=$(killed_store "$T/k.lz4")
"$V" -o first.lz4 --finish "$store"
is "$?" 0 "-o before --finish: finished"
ok "$([ -f first.lz4 ] && [ ! -e "$store" ]; echo $?)" "-o before --finish: the trace is there, the store gone"
store=$(killed_store "$T/k.lz4")
"$V" --finish "$store" -o after.lz4
is "$?" 0 "-o after --finish: finished"
ok "$([ -f after.lz4 ]; echo $?)" "-o after --finish: the trace is where -o says"

store=$(killed_store "$T/k.lz4")
mv "$store" plain-name
"$V" --finish plain-name 2>err
is "$?" 2 "a store not named TRACE.vmrec-store.PID, no -o: refused"
like "$(cat err)" "say where the trace goes with -o" "and told to give -o"
"$V" --finish plain-name -o named.lz4
is "$?" 0 "the same store with -o: finished"

# --- a store whose records break the trace rules ---------------------
store=$(killed_store "$T/bad.lz4")
# the first event in a slab gets errno 9999 (the rules want 0..4095)
python3 - "$store" <<'EOF'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
off = 4096
while off + 16 <= len(data):
    magic, kind, ln = struct.unpack_from("<IIQ", data, off)
    if magic != 0x47524d56:
        off += 8
        continue
    if kind == 4:                      # a slab: 40 bytes, then entries
        slab = off + 16
        start, length = struct.unpack_from("<II", data, slab + 12)
        e = slab + 40 + start
        while e + 8 <= slab + 40 + length:
            size, typ = struct.unpack_from("<II", data, e)
            if size < 8:
                break
            if typ == 9:               # VMT_REC_EVENT: err at 44 (struct vmt_event)
                struct.pack_into("<i", data, e + 8 + 44, 9999)
                open(sys.argv[1], "r+b").write(data)
                sys.exit(0)
            e += size
    off += (16 + ln + 7) & ~7
sys.exit(1)
EOF
ok $? "an event in the store is damaged"
"$V" --finish "$store" 2>err
is "$?" 1 "a finished trace that breaks the rules: status 1"
like "$(cat err)" "bad.lz4: finished, but damaged: " "it says the trace is damaged"
like "$(cat err)" "errno" "and what is wrong"
ok "$([ -e "$store" ]; echo $?)" "the store stays"
done_testing

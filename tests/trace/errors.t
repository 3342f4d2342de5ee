#!/bin/sh
# Files that are not readable traces give one line naming the file and the
# problem, and exit status 1; a cut-off trace reads up to its last complete
# chunk and says how many bytes were lost; a damaged chunk in the middle is
# skipped, the rest read, and the end says what was skipped.
. "$(dirname "$0")/../lib.sh"
GEN=$B/tests/trace/progs/trace_gen READ=$B/tests/trace/progs/trace_read
need_built "$GEN" "$READ"
cd "$T"

# read FILE [-f]: "STATUS|STDOUT|STDERR"
read_trace() { "$READ" $2 "$1" >out 2>err; echo "$?|$(cat out)|$(cat err)"; }
u32() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }

: >empty.lz4
is "$(read_trace empty.lz4)" "1||empty.lz4: empty file" "empty file"

printf 'hello, world\n' >text.lz4
is "$(read_trace text.lz4)" "1||text.lz4: not a vmrec trace (bad magic)" "text file"

printf 'hello, world\n' | lz4 -q >plain.lz4
is "$(read_trace plain.lz4)" "1||plain.lz4: not a vmrec trace (a plain LZ4 file, no vmrec header)" \
	"a plain LZ4 file"

mkdir dir.lz4
is "$(read_trace dir.lz4)" "1||dir.lz4: is a directory" "a directory"
is "$(read_trace missing.lz4)" "1||missing.lz4: No such file or directory" "a missing file"

"$GEN" good.lz4 3000 4096; ok $? "trace_gen writes a trace"
hdr=$(( $(u32 good.lz4 4) + 8 ))
size=$(stat -c %s good.lz4)
summary=$("$READ" good.lz4)
is "$(read_trace good.lz4 -f)" "0|$summary|" "file order reads what seq order reads"
lz4 -dc good.lz4 >/dev/null; ok $? "lz4 -dc accepts the trace"

# the version word is at byte 12 of the first frame
cp good.lz4 v7.lz4
printf '\007' | dd of=v7.lz4 bs=1 seek=12 conv=notrunc 2>/dev/null
is "$(read_trace v7.lz4)" \
	"1||v7.lz4: trace format version 7 is not supported (this reader reads versions 1 to 6)" \
	"a future format version"

head -c 20 good.lz4 >hdrcut.lz4
is "$(read_trace hdrcut.lz4)" "1||hdrcut.lz4: truncated inside the header (20 bytes)" \
	"cut inside the header"
head -c 3 good.lz4 >tiny.lz4
is "$(read_trace tiny.lz4)" "1||tiny.lz4: truncated inside the header (3 bytes)" \
	"cut inside the magic"

# a byte of the header's body changed
cp good.lz4 hdrbad.lz4
printf 'X' | dd of=hdrbad.lz4 bs=1 seek=30 conv=notrunc 2>/dev/null
is "$(read_trace hdrbad.lz4)" "1||hdrbad.lz4: corrupt header: frame checksum mismatch" \
	"a corrupt header"

head -c "$hdr" good.lz4 >only-header.lz4
is "$(read_trace only-header.lz4)" "0|records 0 events 0 chunks 0 good $hdr lost 0|" \
	"a trace with only its header is empty, not broken"

# cut 100 bytes into the first chunk: nothing of it is returned
head -c $((hdr + 100)) good.lz4 >cut.lz4
is "$(read_trace cut.lz4)" \
	"1|records 0 events 0 chunks 0 good $hdr lost 100|cut.lz4: truncated: the last 100 bytes (an incomplete chunk at byte $hdr) were lost" \
	"cut inside the first chunk"
is "$(read_trace cut.lz4 -f)" \
	"1|records 0 events 0 chunks 0 good $hdr lost 100|cut.lz4: truncated: the last 100 bytes (an incomplete chunk at byte $hdr) were lost" \
	"cut inside the first chunk, file order"

# chunk N's offset, size and record count, from the frame layout
chunk_at() { n=$1 off=$hdr; while [ "$n" -gt 1 ]; do off=$((off + $(chunk_size $off))); n=$((n - 1)); done; echo $off; }
chunk_size() { echo $((8 + $(u32 good.lz4 $(($1 + 4))) + $(u32 good.lz4 $(($1 + 60))))); }
chunk_records() { echo $(($(u32 good.lz4 $(($1 + 48))) + $(u32 good.lz4 $(($1 + 52))))); }
total=$(echo "$summary" | cut -d' ' -f2)
chunks=$(echo "$summary" | cut -d' ' -f6)

# a byte inside the first chunk's metadata changed: that chunk is skipped,
# the rest is read, and the end says what was skipped
c1=$hdr s1=$(chunk_size $c1) r1=$(chunk_records $c1)
cp good.lz4 bad.lz4
printf 'X' | dd of=bad.lz4 bs=1 seek=$((hdr + 70)) conv=notrunc 2>/dev/null
want="1|records $((total - r1))"
got=$(read_trace bad.lz4 -f)
is "${got%% events*}" "$want" "a corrupt chunk is skipped, the others are read"
is "${got#*|*|}" "bad.lz4: corrupt at byte $hdr: frame checksum mismatch ($s1 damaged bytes in 1 place skipped, the rest read)" \
	"and the end names it"
is "$(read_trace bad.lz4)" "$got" "seq order skips the same chunk"

# a writer killed in the middle of its write: chunk 3 cut in half, the
# chunks of other writers after it
c3=$(chunk_at 3) s3=$(chunk_size $(chunk_at 3)) r3=$(chunk_records $(chunk_at 3))
{ head -c $((c3 + s3 / 2)) good.lz4; tail -c +$((c3 + s3 + 1)) good.lz4; } >killed.lz4
got=$(read_trace killed.lz4 -f)
is "${got%% events*}" "1|records $((total - r3))" "a chunk cut short in the middle loses only itself"
is "$(echo "$got" | sed 's/.*(\(.*\))$/\1/')" "$((s3 / 2)) damaged bytes in 1 place skipped, the rest read" \
	"and its bytes are counted"
is "$(read_trace killed.lz4)" "$got" "seq order agrees"

# garbage appended after the last chunk
cp good.lz4 tail.lz4
printf 'garbage!' >>tail.lz4
is "$(read_trace tail.lz4 -f)" \
	"1|records $total events $(echo "$summary" | cut -d' ' -f4) chunks $chunks good $size lost 8|tail.lz4: corrupt at byte $size: bad frame magic (8 damaged bytes in 1 place skipped, the rest read)" \
	"garbage after the last chunk"

# two traces concatenated
cat good.lz4 good.lz4 >twice.lz4
is "$(read_trace twice.lz4 -f | sed 's/records [^|]*|/records ...|/')" \
	"1|records ...|twice.lz4: a second header at byte $size (concatenated traces?)" \
	"two traces concatenated"
done_testing

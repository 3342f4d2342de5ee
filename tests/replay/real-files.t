#!/bin/sh
# --real-files maps the recorded files themselves, but never through a
# symlink in any component of the recorded path, only regular files, and
# only as recorded: a file that is gone, shorter than recorded or mapped
# shared and writable (the replay never opens a real file for writing)
# gets a stand-in, and one line says why; a file that grew is mapped as it
# is, and one line says so.  The recorder's own store is not the program's
# file: no word about it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

# map_of PATH SIZE PROT FLAGS : a trace mapping PATH's first two pages
map_of() {
	{ base_map; cat <<EOF2
file 100 1 $2 $1
ev 100 mmap 0 0x2000 $3 $4 3 0 = 0x20000000 file=1
ck 100 4 7 1
EOF2
	}
}

# --- a symlink anywhere in the path ---------------------------------
mkdir -p "$T/x/d" "$T/secret"
printf 'x%.0s' $(seq 1 8192) >"$T/x/d/f"
printf 's%.0s' $(seq 1 8192) >"$T/secret/f"
map_of "$T/x/d/f" 8192 1 0x2 | mk dir
"$V" -q --strict --real-files "$T/dir.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "the recorded path, real: mapped, no word"
rm -r "$T/x/d"
ln -s "$T/secret" "$T/x/d"
"$V" -q --strict --real-files "$T/dir.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:vmreplay: $T/x/d/f: $T/x/d is a symbolic link, refused (a stand-in is mapped instead)" \
	"a directory of the path now a symlink: refused, a stand-in mapped"
ln -s "$T/secret/f" "$T/last"
map_of "$T/last" 8192 1 0x2 | mk last
"$V" -q --strict --real-files "$T/last.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:vmreplay: $T/last: $T/last is a symbolic link, refused (a stand-in is mapped instead)" \
	"the file itself a symlink: refused"

# --- shared and writable ------------------------------------------------
printf 'w%.0s' $(seq 1 8192) >"$T/shared"
cp "$T/shared" "$T/shared.orig"
map_of "$T/shared" 8192 3 0x1 | mk shared
"$V" -q --strict --per-event --json "$T/shared.json" --real-files "$T/shared.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:vmreplay: $T/shared: mapped shared and writable, and --real-files never opens a file for writing (a stand-in is mapped instead)" \
	"a shared writable mapping: a stand-in, said"
is "$(per_event "$T/shared.json")" "100 mmap new 6 ok" "the shared writable mapping is made as recorded"
cmp -s "$T/shared" "$T/shared.orig"
ok $? "the real file is untouched"
map_of "$T/shared" 8192 1 0x1 | mk sharedro
"$V" -q --strict --real-files "$T/sharedro.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "a shared read-only mapping: the real file, no word"

# --- the size changed ------------------------------------------------
printf 'y%.0s' $(seq 1 4096) >"$T/shrunk"
map_of "$T/shrunk" 8192 1 0x2 | mk shrunk
"$V" -q --strict --real-files "$T/shrunk.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:vmreplay: $T/shrunk: 4096 bytes now, 8192 when recorded: pages it had are gone (a stand-in is mapped instead)" \
	"a file shorter than recorded: a stand-in, said"
printf 'z%.0s' $(seq 1 12288) >"$T/grown"
map_of "$T/grown" 8192 1 0x2 | mk grown
"$V" -q --strict --real-files "$T/grown.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:vmreplay: $T/grown: 12288 bytes now, 8192 when recorded (mapped as it is now)" \
	"a file that grew: mapped, said"

# --- the recorder's own store --------------------------------------------
{ cat <<EOF2
process 100 1 0
file 100 1 4194304 $T/t.lz4.vmrec-store.100
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x30000000 0x30021000 rw- [stack]
vma 0x50000000 0x50400000 rw-s rec file=1
end
ck 100 1 3 1
EOF2
} | mk store
"$V" -q --strict --real-files "$T/store.vmt" 2>"$T/err"
is "$?:$(cat "$T/err")" "0:" "the recorder's store in the map: no word about it"
if [ -x "$B/bin/vmrec" ] && ! carries_sanitizer "$V"; then
	"$B/bin/vmrec" -o "$T/true.lz4" -- /bin/true
	"$V" -q --real-files "$T/true.lz4" 2>"$T/err"
	is "$(grep -c vmrec-store "$T/err")" 0 "a real recording: no word about its store"
else
	skip "a real recording (vmrec not built, or a sanitizer build)"
fi
done_testing

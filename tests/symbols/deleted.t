#!/bin/sh
# A trace whose binaries are gone still symbolises to module+offset, says
# once what is missing, and a cache made while they existed is not trusted.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/symbols/build.sh"
V=$B/bin/vmtrace

"$V" top "$T/cp.vmt" >/dev/null 2>&1   # leaves a cache with names
rm -f "$T/bin/callpaths" "$T/bin/libplugin.so"

"$V" top "$T/cp.vmt" >"$T/out" 2>"$T/err"; ok $? "top exits 0"
grep -cE " $OURS" "$T/out" >"$T/n"
is "$(cat "$T/n")" 0 "no call site has a name from the deleted binaries"
n=$(grep -cE '  callpaths\+0x[0-9a-f]+$' "$T/out")
[ "$n" -ge 5 ]; ok $? "their call sites print as module+0xoffset ($n of callpaths)"
grep -q '^ *1 .*  libplugin\.so+0x[0-9a-f]*$' "$T/out"; ok $? "the plugin's constructor is still its own call site"
is "$(grep -c "$T/bin/callpaths: binary gone" "$T/err")" 1 "the missing binary is noted once"
is "$(grep -c "$T/bin/libplugin.so: binary gone" "$T/err")" 1 "the missing plugin is noted once"
grep -v 'note: ' "$T/err" >"$T/other"
is_file "$T/other" /dev/null "nothing but notes on stderr"

"$V" dump -k "$T/cp.vmt" >"$T/dump" 2>/dev/null; ok $? "dump -k exits 0"
grep -qE "^ > $T/bin/callpaths\(\) \[0x[0-9a-f]+\]\$" "$T/dump"
ok $? "dump -k prints a frame of the missing binary as strace does: PATH() [0xOFFSET]"

done_testing

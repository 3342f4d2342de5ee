#!/bin/sh
# Symbols are cached beside the trace; the cache is used while the trace and
# the binaries are unchanged, and ignored when stale or corrupt.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/symbols/build.sh"
V=$B/bin/vmtrace
C=$T/cp.vmt.syms
names() { "$V" top "$T/cp.vmt" 2>/dev/null | grep -v '^#' | awk 'NR > 1 { print $5 }' | sort; }

names >"$T/first"
[ -s "$C" ]; ok $? "the first query writes TRACE.syms"
head -1 "$C" >"$T/got"; echo "vmrec-syms 2" >"$T/want"
is_file "$T/got" "$T/want" "the cache starts with its magic and version"
names >"$T/second"
is_file "$T/second" "$T/first" "the second query gives the same answer"

sed 's/\talloc_big\t/\tTAMPERED\t/' "$C" >"$T/c" && cat "$T/c" >"$C"
names | grep -c TAMPERED >"$T/n"
is "$(cat "$T/n")" 1 "an unchanged trace's cache is used (the tampered name shows)"

touch -d '2001-01-01' "$T/cp.vmt"
names >"$T/got"
is_file "$T/got" "$T/first" "a trace with another mtime ignores the cache"

sed 's/\talloc_big\t/\tTAMPERED\t/' "$C" | head -n 4 >"$T/c" && cat "$T/c" >"$C"
names >"$T/got"
is_file "$T/got" "$T/first" "a cut-off cache is ignored"
printf 'vmrec-syms 2\ntrace\tx\n\001\002' >"$C"
names >"$T/got"
is_file "$T/got" "$T/first" "a garbage cache is ignored"
grep -q '^end	' "$C"; ok $? "and rewritten whole"

rm -f "$C"
mkdir "$C"   # the trace's directory cannot take the cache: it goes to XDG_CACHE_HOME
XDG_CACHE_HOME=$T/xdg names >"$T/got"
is_file "$T/got" "$T/first" "with TRACE.syms unusable the answer is the same"
ls "$T/xdg/vmrec" | grep -c 'cp\.vmt\.syms$' >"$T/n"
is "$(cat "$T/n")" 1 "and the cache went under \$XDG_CACHE_HOME/vmrec"
rmdir "$C"
VMREC_NO_SYMCACHE=1 "$V" top "$T/cp.vmt" >/dev/null 2>&1
[ ! -e "$C" ]; ok $? "VMREC_NO_SYMCACHE=1 writes no cache"

done_testing

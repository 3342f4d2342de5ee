#!/bin/sh
# text-readonly: the recorder patches libc's wrappers through
# /proc/self/mem, so libc's text is never made writable: the process
# makes no mprotect to PROT_WRITE|PROT_EXEC during start-up, and after it
# /proc/self/maps shows libc's mappings as natively (the same count, the
# same protections and offsets).  The sites of a page are written at once.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
have_strace || skip_all "strace cannot trace here"

strace -qq -E LD_PRELOAD="$LIB" -E VMREC_OUT="$T/t.lz4" -e trace=mprotect,pwrite64 -o "$T/st" /bin/true
ok $? "/bin/true runs recorded under strace"
wx=$(grep -c 'PROT_WRITE|PROT_EXEC' "$T/st")
is "$wx" 0 "no mprotect makes text writable"
pokes=$(grep -c '^pwrite64(' "$T/st")
ok "$([ "$pokes" -ge 1 ]; echo $?)" "the wrappers are patched by pwrite: $pokes writes"
# the sites of one page go in with one write
pages=$(awk -F', ' '/^pwrite64\(/ { sub(/\).*/, "", $NF); printf "%.0f\n", int($NF / 4096) }' "$T/st" | sort -u | wc -l)
is "$pages" "$pokes" "one write per page of libc's text"

# libc's lines: protection and file offset, in address order
libc_lines() { awk '$6 ~ /\/libc\.so/ { print $2, $3 }'; }
recorded=$(record "$T/c.lz4" cat /proc/self/maps | libc_lines)
native=$(cat /proc/self/maps | libc_lines)
like "$recorded" "r-xp" "libc's text is read-only and executable when recorded"
is "$recorded" "$native" "libc's mappings as natively: $(echo "$recorded" | wc -l) VMAs"
"$TC" "$T/c.lz4" >"$T/c.tc" 2>&1
ok $? "the trace of cat is readable"
done_testing

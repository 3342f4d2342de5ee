#!/bin/sh
# image-start: an image's MAP record and its start checkpoint come from
# one read of /proc/self/maps (nothing between them changes a VMA): the
# constructor opens it once between creating the store and taking the
# fatal signals, and the two records agree on every count.  A later image
# (after an exec) takes libvmrec's path from ld.so, which the exec was
# given as a maps line showed it: no other read, and the recorder's
# VMAs are still told apart, even where the root's LD_PRELOAD named
# the library through a symlink.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
have_strace || skip_all "strace cannot trace here"

strace -qq -E LD_PRELOAD="$LIB" -E VMREC_OUT="$T/t.lz4" -e trace=openat,rt_sigaction \
	-o "$T/st" /bin/true
ok $? "/bin/true runs recorded under strace"
reads=$(awk '/vmrec-store/ { on = 1 } /^rt_sigaction/ { on = 0 } on && /\/proc\/self\/maps/' "$T/st" | wc -l)
is "$reads" 1 "one read of /proc/self/maps for the image's start"

record "$T/p.lz4" "$P/splits" >/dev/null
"$TC" -a "$T/p.lz4" >"$T/p.tc"
map=$(awk '$1 == "map" { print $4, $6; exit }' "$T/p.tc")
ck=$(awk '$1 == "checkpoint" && $4 == 1 { print $6, $8; exit }' "$T/p.tc")
like "$map" " " "a MAP record: $map"
is "$ck" "$map" "the start checkpoint counts what MAP lists (VMAs, the recorder's)"

# later images: sh (the root) execs /bin/true twice, in forked children
ln -s "$LIB" "$T/link.so"
strace -f -qq -E LD_PRELOAD="$T/link.so" -E VMREC_OUT="$T/l.lz4" -e trace=execve,openat,rt_sigaction \
	-o "$T/lst" sh -c '/bin/true; /bin/true'
ok $? "sh runs recorded under strace -f, the library named by a symlink"
per=$(awk '/execve\("\/bin\/true/ { on[$1] = 1 } on[$1] && /^[0-9]+ +rt_sigaction/ { on[$1] = 0 }
	on[$1] && /\/proc\/self\/maps/ { n[$1]++ } END { for (p in n) print n[p] }' "$T/lst" | sort -u | tr '\n' ' ')
is "$per" "1 " "each later image reads /proc/self/maps once before the fatal signals"
"$TC" -a "$T/l.lz4" >"$T/l.tc"
rec=$(awk '$1 == "map" { print $6 }' "$T/l.tc" | sort -u | tr '\n' ' ')
n=$(awk '$1 == "map"' "$T/l.tc" | wc -l)
is "$n" 3 "a MAP record for each image"
like "$rec" " " "recorder VMAs in each image's MAP: $rec"
is "$(echo "$rec" | wc -w)" 1 "the same recorder VMAs in the root and the later images"
done_testing

#!/bin/sh
# image-start: an image's MAP record and its start checkpoint come from
# one read of /proc/self/maps (nothing between them changes a VMA): the
# constructor opens it once between creating the store and taking the
# fatal signals, and the two records agree on every count.
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
done_testing

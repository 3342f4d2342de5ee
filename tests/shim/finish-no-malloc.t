#!/bin/sh
# Preloaded alone, the last process to leave finishes the trace inside the
# recorded program, decoding what a dead process left in its store slab
# (docs/store.md).  It must do so with the recorder's own memory, never the
# program's malloc: a program whose allocator is its own (or whose heap is
# broken, or locked by a thread that died) would see calls it never made.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$LIB" "$B/bin/vmtrace" "$P/finish_no_malloc"

LD_PRELOAD=$LIB VMREC_OUT=$T/t.lz4 "$P/finish_no_malloc" 2>"$T/err"
is "$?" 0 "the program exits as natively (its child killed by SIGKILL)"
is "$(cat "$T/err")" "" "the finisher calls none of the program's malloc, calloc, realloc, free"
out=$("$B/bin/vmtrace" check "$T/t.lz4")
like "$out" "OK: " "the trace checks OK"
like "$out" "1 vanished" "the killed child is in it, vanished"
is "$("$TC" "$T/t.lz4" | grep -c ' mmap 0 0x2000 0x1 0x22 ')" 1 \
	"the child's mmap, left in its slab, is in the trace"
done_testing

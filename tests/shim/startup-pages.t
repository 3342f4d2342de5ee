#!/bin/sh
# What the recorder's start-up writes of libvmrec.so's own data, in every
# recorded process: a page written is a copy-on-write fault (~25 us on a
# shared guest).  Its small variables share a page, and the buffers
# start-up writes follow them, each one's head on the page where the one
# before ends (shim/data-order.sh, SHIM_HOT_DATA in shim/module.mk); a
# later image takes the store's name from its environment, not a copy.
# recorder_pages counts the pages by main.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
V=$B/bin/vmrec
need_built "$V" "$B/lib/libvmrec.so" "$P/recorder_pages"
cd "$T" || exit 1
MAX=8

"$V" -o l.lz4 -- sh -c "$P/recorder_pages" >l.out
is "$?" 0 "a later image under the launcher ran"
n=$(head -1 l.out)
[ -n "$n" ] && [ "$n" -le "$MAX" ]
ok $? "under the launcher it wrote at most $MAX pages of libvmrec's data ($n)"
note "pages:$(sed -n 2p l.out)"

LD_PRELOAD=$B/lib/libvmrec.so VMREC_OUT=$T/p.lz4 sh -c "$P/recorder_pages" >p.out
is "$?" 0 "a later image preloaded alone ran"
n=$(head -1 p.out)
[ -n "$n" ] && [ "$n" -le "$MAX" ]
ok $? "preloaded alone, at most $MAX ($n)"

LD_PRELOAD=$B/lib/libvmrec.so VMREC_OUT=$T/r.lz4 "$P/recorder_pages" >r.out
is "$?" 0 "the root image preloaded alone ran"
n=$(head -1 r.out)
[ -n "$n" ] && [ "$n" -le "$MAX" ]
ok $? "the root too, which makes the store, at most $MAX ($n)"
done_testing

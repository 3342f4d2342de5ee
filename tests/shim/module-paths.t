#!/bin/sh
# Module records carry absolute paths: an object dlopen'ed by a path
# relative to the working directory is named by its full path.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
[ -e /usr/lib/x86_64-linux-gnu/libunwind.so.8 ] || skip_all "libunwind not installed"
dir=/usr/lib/x86_64-linux-gnu
[ -e $dir/libz.so.1 ] || skip_all "no $dir/libz.so.1 to load"

out=$(cd $dir && "$B/bin/vmrec" -o "$T/s.lz4" --stacks=8 -- "$P/dlopen_relative" ./libz.so.1)
is "$out" PASS "the program loads ./libz.so.1"
"$TC" -a "$T/s.lz4" | awk '$1 == "module" { print $3 }' >"$T/paths"
is "$(grep -c '/libz\.so\.1' "$T/paths")" 1 "the library is described once"
is "$(grep -v '^/' "$T/paths" | grep -v vdso)" "" "every module path is absolute"
done_testing

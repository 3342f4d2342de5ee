#!/bin/sh
# libvmsim.a exports only sim_-prefixed names: a program linking the
# simulator keeps tree_insert, vma_new and the like for itself.
. "$(dirname "$0")/../lib.sh"
need_built "$B/lib/libvmsim.a"
nm -g --defined-only "$B/lib/libvmsim.a" | awk 'NF == 3 { print $3 }' | sort -u >"$T/names"
ok "$([ -s "$T/names" ]; echo $?)" "nm lists the library's names ($(wc -l <"$T/names" | tr -d ' '))"
# (ASan's __odr_asan.NAME markers, under make asan, name sim_ globals too)
is "$(grep -v '^sim_\|^__odr_asan\.sim_' "$T/names" | tr '\n' ' ')" "" "every exported name starts with sim_"
done_testing

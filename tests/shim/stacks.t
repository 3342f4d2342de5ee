#!/bin/sh
# --stacks: every recorded call names a stack, each stack is written once,
# and the loaded objects are described for symbolisation.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
[ -e /usr/lib/x86_64-linux-gnu/libunwind.so.8 ] || skip_all "libunwind not installed"

out=$("$B/bin/vmrec" -o "$T/s.lz4" --stacks=8 -- "$P/splits")
is "$out" PASS "the program runs with stacks on"
"$TC" -a "$T/s.lz4" >"$T/all"
calls=$(sed -n '/ munmap 0 0 /,$p' "$T/all" | grep -c ' = ')
with=$(sed -n '/ munmap 0 0 /,$p' "$T/all" | grep -c ' stack=[1-9]')
is "$with" "$calls" "every call from main on has a stack id"
ids=$(grep -c '^stack ' "$T/all")
uniq=$(awk '$1 == "stack" { print $3 }' "$T/all" | sort -u | wc -l)
is "$ids" "$uniq" "each stack is written once"
grep -q "^module .*/progs/splits build-id 20 bytes" "$T/all"; ok $? "the program's module record has its build-id"
"$B/bin/vmrec" -o "$T/n.lz4" -- "$P/splits" >/dev/null
"$TC" -a "$T/n.lz4" >"$T/plain"
# brk left out: dlopen of libunwind at start-up initialises malloc before
# main, so the program's first brk moves earlier (docs/shim.md).
strip() { sed -n '/ munmap 0 0 /,$p' "$1" | grep ' = ' | grep -v ' brk ' | sed 's/ stack=[0-9]*//; s/0x[0-9a-f]\{8,\}/ADDR/g; s/^[0-9]* [0-9]* //'; }
strip "$T/all" >"$T/a"; strip "$T/plain" >"$T/b"
is_file "$T/a" "$T/b" "the same calls with and without stacks (libunwind's own are not recorded)"
is "$(grep -c '^stack ' "$T/plain")" 0 "without --stacks there are no stacks"
# the recorder's inner frames are dropped: only its hook, where strace -k
# shows libc's wrapper, stays on top
"$B/bin/vmtrace" dump -k "$T/s.lz4" >"$T/k"
inner=$(awk '/^ > / { n++; if (n == 2 && /libvmrec\.so/) bad++; next } { n = 0 } END { print bad + 0 }' "$T/k")
is "$inner" 0 "no stack has a second recorder frame under its hook"
is "$(grep -c '^ > .*libvmrec\.so(call_end' "$T/k")" 0 "call_end is never shown"
done_testing

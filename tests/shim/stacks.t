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
# the top frame is where strace -k puts it: the syscall in libc's wrapper
# (which the hook replaced), or for a trapped call the interrupted
# instruction; no recorder frame is shown at all
"$B/bin/vmtrace" dump -k "$T/s.lz4" >"$T/k"
is "$(grep -c '^ > .*libvmrec\.so' "$T/k")" 0 "no stack shows a recorder frame"
sed -n '/munmap(NULL, 0)/,$p' "$T/k" | awk '/^[0-9]/ { call = $2; sub(/\(.*/, "", call); top = 1; next }
	top { top = 0; sub(/^ > [^ ]*\//, ""); sub(/\+0x[0-9a-f]*\).*/, ")"); print call, $0 }' | sort -u >"$T/tops"
printf '%s\n' 'exit_group libc.so.6(_exit)' 'madvise libc.so.6(__madvise)' 'mmap libc.so.6(__mmap)' 'mprotect libc.so.6(__mprotect)' \
	'munmap libc.so.6(__munmap)' >"$T/want"
if carries_asan "$P/splits"; then
	skip "built with AddressSanitizer: ASan's own mmap calls have its frames on top"
else
	is_file "$T/tops" "$T/want" "each call's top frame is libc's wrapper, as strace -k shows it"
fi
# preloaded alone: under the launcher, ld.so's calls are the launcher's,
# recorded without a stack
VMREC_STACKS=4 record "$T/d.lz4" "$P/dlopen_loop" >/dev/null
"$B/bin/vmtrace" dump -k "$T/d.lz4" 2>/dev/null |
	awk '/^[0-9].*PROT_READ[|]PROT_EXEC.*MAP_FIXED/ { getline; print; exit }' >"$T/ld"
grep -qE '^ > /[^ ]*/ld-linux-x86-64\.so\.2\(__mmap\+0x[0-9a-f]+\)' "$T/ld"
ok $? "a trapped loader mmap's top frame is ld.so's own mmap, not the trap handler"
# threads: pthread_create's clone3 has its top frame in libc's __clone3
# (the hook that replaced it is called, not jumped to, from its parent
# side), and a thread's stack ends where glibc's does, in __clone3's child
# (the hook that called the thread's function stands there), never in
# the recorder
"$B/bin/vmrec" -o "$T/t.lz4" --stacks=16 -- "$P/threads_malloc" >/dev/null
"$B/bin/vmtrace" dump -k "$T/t.lz4" 2>/dev/null >"$T/tk"
is "$(grep -c '^ > .*libvmrec\.so' "$T/tk")" 0 "a threaded program's stacks show no recorder frame"
awk '/^[0-9]+ +clone3\(/ { getline; sub(/\+0x.*/, ""); sub(/^ > [^ ]*\//, ""); print }' "$T/tk" | sort -u >"$T/ctop"
is "$(cat "$T/ctop")" "libc.so.6(__clone3" "clone3's top frame is libc's __clone3"
awk '/start_thread/ { getline; sub(/\+0x.*/, ""); sub(/^ > [^ ]*\//, ""); print }' "$T/tk" | sort -u >"$T/outer"
is "$(cat "$T/outer")" "libc.so.6(__clone3" "a thread's outermost frame is __clone3's child, as natively"
done_testing

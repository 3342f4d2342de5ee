#!/bin/sh
# Cached unwinding: one function reached alternately from two callers (same
# ip, same stack pointer, different return address above it) gets the two
# right stacks every time, as a fresh unwind would, and both stay cached:
# libunwind's steps block signals around their work (rt_sigprocmask), so
# 400 rounds unwinding no more than 20 do shows no unwind per switch.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
[ -e /usr/lib/x86_64-linux-gnu/libunwind.so.8 ] || skip_all "libunwind not installed"

out=$("$B/bin/vmrec" -o "$T/s.lz4" --stacks=4 -- "$P/stack_paths")
is "$out" PASS "the program runs with stacks on"
# the caller under common() for each mmap, in order
"$B/bin/vmtrace" dump -k "$T/s.lz4" | awk '
	/^[0-9]+ +mmap\(NULL, 4096, PROT_READ,/ { want = 3; next }
	/^ > / && want { if (--want == 0) { sub(/.*\(/, ""); sub(/\+.*/, ""); print } ; next }
	{ want = 0 }' >"$T/callers"
i=0; : >"$T/want"
while [ $i -lt 20 ]; do
	[ $((i % 2)) = 0 ] && echo via_a >>"$T/want" || echo via_b >>"$T/want"
	i=$((i + 1))
done
is_file "$T/callers" "$T/want" "each mmap names the caller that made it"

masks() {   # ROUNDS: libunwind's rt_sigprocmask calls in a recording
	# (under strace the launcher cannot ptrace: it says so, and libvmrec
	# records alone)
	strace -f -qq -e trace=rt_sigprocmask -o "$T/st.$1" \
		"$B/bin/vmrec" -o "$T/m.lz4" --stacks=4 -- "$P/stack_paths" "$1" >/dev/null 2>"$T/st.err"
	grep -c rt_sigprocmask "$T/st.$1"
}
if ! have_strace; then
	skip "strace cannot trace here"
else
	few=$(masks 20); many=$(masks 400)
	if [ "$few" -eq 0 ]; then
		skip "this libunwind blocks no signals: nothing to count"
	else
		ok "$([ "$many" -lt $((few + 40)) ]; echo $?)" \
			"alternating callers stay cached ($few signal-mask calls for 20 rounds, $many for 400)"
	fi
fi
done_testing

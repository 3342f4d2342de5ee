#!/bin/sh
# Synthetic traces hold what this kernel answers: replayed on it with the
# kernel choosing placements, every checkpoint's VMA count matches and no
# result differs from the synthesized one.
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace
R=$B/bin/vmreplay
need_built "$V" "$R"
for w in "brk_test" "page_test" "brk1" "brk2" "brk2 --mode thread" "mmap1" "mmap1 --mode thread" \
	"mmap2" "pthread" "fork"; do
	set -- $w
	name=$1; shift
	"$V" synth "$name" --iterations 3 --tasks 2 "$@" -o "$T/t" &&
		"$R" --placement kernel --strict "$T/t" >"$T/out" 2>&1 &&
		grep -q 'result mismatches 0,' "$T/out"
	st=$?
	ok $st "$w: replays on this kernel with every checkpoint and result matching"
	[ $st -eq 0 ] || sed 's/^/# /' "$T/out" | tail -5
done
done_testing

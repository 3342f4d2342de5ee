#!/bin/sh
# The fork micro-benchmark with PTE-mapped large folios through the tools:
# `vmtrace synth fork` replayed with --thp never --mthp 64K does less
# modelled work under 6.9 (f8d937761d65 F1: one refcount and rmap update
# per folio) than under 6.8 (one per page), and the same with 4 KiB pages
# only; the modelled time follows; a bad --mthp or calibration file is one
# line and exit 2.  (vmreport --explain does not name F1 yet: a fork
# child's copy is kept with the child's first applied event, and a child
# that only exits has none.)
. "$(dirname "$0")/../lib.sh"

need_built "$B/bin/vmreplay" "$B/bin/vmtrace" "$B/bin/vmreport"
"$B/bin/vmtrace" synth fork --iterations 2 -o "$T/fork.lz4" >/dev/null
ok $? "vmtrace synth fork"
replay() { # KERNEL MTHP OUT
	"$B/bin/vmreplay" -q --target sim --kernel "$1" --thp never --mthp "$2" --per-event --json "$3" "$T/fork.lz4"
}
count() { sed -n "s/.*\"vmreplay\\.model\\.$2\": \\[\\([0-9]*\\)\\].*/\\1/p" "$1"; }
replay 6.8 64K "$T/68.json" && replay 6.9 64K "$T/69.json"
ok $? "replayed in 6.8 and 6.9 with 64 KiB folios"
is "$(count "$T/68.json" fork_rmap)" 524288 "6.8: a refcount and rmap update per page, two forks"
is "$(count "$T/69.json" fork_rmap)" 32768 "6.9: one per 64 KiB folio"
is "$(count "$T/69.json" pte_copy)" "$(count "$T/68.json" pte_copy)" "as many PTEs copied"
[ "$(count "$T/69.json" cost_ns)" -lt "$(count "$T/68.json" cost_ns)" ]
ok $? "6.9's modelled time is below 6.8's ($(count "$T/69.json" cost_ns) < $(count "$T/68.json" cost_ns) ns)"

replay 6.8 none "$T/68s.json" && replay 6.9 none "$T/69s.json"
ok $? "replayed with 4 KiB pages only"
is "$(count "$T/69s.json" fork_rmap)" "$(count "$T/68s.json" fork_rmap)" "4 KiB pages: 6.9 updates as 6.8 does"
is "$(count "$T/69s.json" cost_ns)" "$(count "$T/68s.json" cost_ns)" "... the same modelled time"

"$B/bin/vmreplay" --target sim --mthp 2M "$T/fork.lz4" >"$T/out" 2>"$T/err"
is "$? $(wc -l <"$T/err")" "2 1" "--mthp 2M: exit 2, one line"
grep -q -- '--mthp.*2M is --thp' "$T/err"
ok $? "it says why: $(cat "$T/err")"
"$B/bin/vmreplay" --mthp 64K "$T/fork.lz4" >"$T/out" 2>"$T/err"
is "$?" 2 "--mthp without --target sim: exit 2"
printf 'unit nosuch 3\n' >"$T/bad.cal"
"$B/bin/vmreplay" -q --target sim --calibration "$T/bad.cal" "$T/fork.lz4" >"$T/out" 2>"$T/err"
is "$? $(wc -l <"$T/err")" "2 1" "a calibration file with an unknown unit: exit 2, one line"
done_testing

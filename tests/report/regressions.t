#!/bin/sh
# The regressions that motivated vmrec, reproduced from a trace in the
# simulator's modelled kernel cost and flagged by vmreport as exact
# changes (vmreplay.model.*, docs/kernel-profiles.md "Modelled cost"):
# - stress-ng.pthread -84%: 6.7 aligned anonymous mappings of 2 MiB and more
#   to a PMD (efa7df3e3bb5), so with THP always every thread stack's first
#   touch zeroes a 2 MiB page; 6.8 keeps MAP_STACK out of it (c4608d1bf7c6).
# - aim9.brk_test: 6.4 preallocates maple nodes for every brk expansion
#   (C1), 6.3 does not.
# - mseal (8be7258aad44, 6.10): mmap and munmap walk their range for
#   sealed VMAs first (X7, the mmap1 path); 6.12 checks VMA by VMA.
. "$(dirname "$0")/../lib.sh"
need_built "$B/bin/vmtrace" "$B/bin/vmreplay" "$B/bin/vmreport"
VT=$B/bin/vmtrace VR=$B/bin/vmreplay R=$B/bin/vmreport

# cell NAME COLUMN: "verdict delta" of metric NAME in vmreport's column
cell() {
	python3 - "$T/rep.json" "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for m in d["metrics"]:
    if m["name"] == sys.argv[2]:
        c = m["cells"][int(sys.argv[3])]
        print(c.get("verdict"), c.get("delta"))
        break
else:
    print("missing")
PY
}

"$VT" synth pthread -o "$T/pthread.lz4" >/dev/null
ok $? "vmtrace synth pthread"
for k in 6.6 6.7 6.8; do
	"$VR" -q --target sim --kernel "$k" --placement kernel --thp always --json "$T/p-$k.json" "$T/pthread.lz4"
	ok $? "replayed in the $k profile with THP always"
done
"$R" -f json "$T/p-6.6.json" "$T/p-6.7.json" "$T/p-6.8.json" >"$T/rep.json"
ok $? "vmreport compares the three"
is "$(cell vmreplay.model.zero_2m 1)" "changed 160" "6.7: every stack's first touch zeroes a 2 MiB page (16 threads x 10 rounds)"
is "$(cell vmreplay.model.zero_2m 2)" "same 0" "6.8: none, as in 6.6"
is "$(cell vmreplay.model.zero_4k 1)" "changed -800" "6.7: the 4 KiB pages those touches would have zeroed are gone"

"$VT" synth brk_test --iterations 100 -o "$T/brk.lz4" >/dev/null
ok $? "vmtrace synth brk_test"
for k in 6.3 6.4; do
	"$VR" -q --target sim --kernel "$k" --json "$T/b-$k.json" "$T/brk.lz4"
	ok $? "replayed in the $k profile"
done
"$R" -f json "$T/b-6.3.json" "$T/b-6.4.json" >"$T/rep.json"
set -- $(cell vmreplay.model.mt_prealloc 1)
is "$1" "changed" "6.4 preallocates maple nodes where 6.3 does not (C1)"
ok "$([ "${2:-0}" -ge 1600 ]; echo $?)" "at least once per brk expansion (100 rounds x 16: +${2:-?})"
"$VT" synth mmap1 --iterations 10 --tasks 1 -o "$T/mmap1.lz4" >/dev/null
ok $? "vmtrace synth mmap1"
for k in 6.8 6.11 6.12; do
	"$VR" -q --target sim --kernel "$k" --json "$T/m-$k.json" "$T/mmap1.lz4"
	ok $? "mmap1 replayed in the $k profile"
done
"$R" -f json "$T/m-6.8.json" "$T/m-6.11.json" "$T/m-6.12.json" >"$T/rep.json"
is "$(cell vmreplay.model.seal_check 1)" "changed 20" "6.11: a sealed-VMA walk per mmap and munmap (10 rounds)"
is "$(cell vmreplay.model.seal_check 2)" "same 0" "6.12: none, as 6.8"
"$VR" --target sim --thp sometimes "$T/brk.lz4" 2>"$T/err"
is "$?:$(cat "$T/err")" "2:vmreplay: --thp: expected always, madvise, never or host, got sometimes" "a bad --thp is one line"
"$VR" --thp always "$T/brk.lz4" 2>"$T/err"
is "$?:$(cat "$T/err")" "2:vmreplay: --thp needs --target sim (this kernel has its own setting)" "--thp is the simulator's"
done_testing

#!/bin/sh
# make demo in quick mode (no QEMU, small iteration counts): the reports it
# prints and writes, the traces and results it leaves, and its failure line.
. "$(dirname "$0")/../lib.sh"

need_built "$B/bin/vmrec" "$B/bin/vmtrace" "$B/bin/vmreplay" "$B/bin/vmreport"
out=$T/demo
VMREC_DEMO_QUICK=1 VMREC_DEMO_OUT=$out VMREC_BUILD=$B VMREC_SRC=$S \
	sh "$S/mk/demo.sh" >"$T/stdout" 2>"$T/stderr"
ok $? "quick demo exits 0"
[ -s "$T/stderr" ] && sed 's/^/# stderr: /' "$T/stderr"

grep -q '^       %stddev     %change         %stddev     %change' "$T/stdout"
ok $? "text report has the LKP %stddev/%change header"
grep -q '^--- pthread$' "$T/stdout" && grep -q '^--- python3-threads$' "$T/stdout"
ok $? "text report has a table for a synthetic and a recorded trace"
# the traces where a row differs first, then a line for each of the others
sed -n '/^=== 4\./,/^=== 5\.\|^=== 6\./p' "$T/stdout" >"$T/s4"
# Which traces differ depends on the machine (a recorded program's host
# replay may or may not differ from the simulator); the order must not:
# the differing ones in the demo's order (recorded programs first), then
# the others, every trace once.  pthread differs everywhere (6.1 vs 6.8).
# the demo's order: its recordings (mk/demo.sh RECORDINGS), then the quick
# synthetic list
ALL="python3-json cc-compile python3-threads brk_test brk1 mmap1 pthread"
# (a trace with no row to show is named on a line of its own, whatever
# its report says of the folded rows)
shown=$(sed -n 's/^--- \([a-z0-9_-]*\)$/\1/p; /^--- no row differs/,$ s/^  \([a-z][a-z0-9_-]*\)\( .*\)\{0,1\}$/(\1)/p' "$T/s4" |
	grep -xE "\(?($(echo $ALL | tr ' ' '|'))\)?" | tr '\n' ' ')
want=
for n in $ALL; do case " $shown " in *" $n "*) want="$want$n " ;; esac; done
for n in $ALL; do case " $shown " in *" ($n) "*) want="$want($n) " ;; esac; done
case "$shown" in *"pthread "*) ;; *) want="pthread differs: $want" ;; esac
is "$(echo "$shown" | wc -w):$shown" "7:$want" \
   "section 4: the traces where a row differs first, each other one on one line"
order4=$(echo "$shown" | tr -d '()')
grep -q '^--- no row differs (vmreport --all shows them):$' "$T/s4"
ok $? "section 4: the traces where none differs, under one heading"
grep -q 'vmreplay.merge.split' "$T/stdout"
ok $? "tables show merge outcomes"
sed -n '/^=== 6\./,/^=== Done/p' "$T/stdout" |
	grep -Eq '^  event [0-9]+: (mmap|munmap|mprotect|madvise)\(0x[0-9a-f]+, '
ok $? "--explain names the first diverging event of 6.1 vs 6.8 on pthread"
sed -n '/^=== 7\./,/^=== Done/p' "$T/stdout" >"$T/stories"
grep -qE '^  pthread +6\.7: -[1-9][0-9.]*%  6\.8: [-+]0\.[0-9]%$' "$T/stories"
ok $? "the regressions section: pthread predicted slower on 6.7 (2 MiB stacks), not on 6.8"
grep -q 'efa7df3e3bb5' "$T/stories" && grep -q 'c4608d1bf7c6' "$T/stories" &&
	grep -q '28c5609fb2' "$T/stories" && grep -q 'cacded5e42b9' "$T/stories"
ok $? "... and names each story's commits"
is "$(grep -c '^  python3-json ' "$T/stories")" 5 "the recorded programs are predicted under each story's profiles (five stories)"
grep -q '^  skipped: quick mode$' "$T/stdout"
ok $? "quick mode says QEMU is skipped"
grep -q "^report: *$out/report.html" "$T/stdout"
ok $? "the last lines say where the report is"

html=$out/report.html
[ -s "$html" ] && grep -q '<table' "$html" && grep -q '<svg' "$html" &&
	tail -c 64 "$html" | grep -q '</html>'
ok $? "report.html has the table and SVG plots and is complete"
is "$(grep -o '<nav>.*</nav>' "$html" | grep -o '>[a-z0-9_-]*\.lz4<' | sed 's/^>//; s/\.lz4<$//' | tr '\n' ' ')" \
   "$order4" \
   "report.html: the traces in section 4's order (those where a row differs first)"
n=$(ls "$out"/html/*.html | wc -l)
is "$n" 7 "one HTML page per trace"

bad=
for t in "$out"/traces/*.lz4; do
	"$B/bin/vmtrace" stats "$t" >/dev/null 2>&1 || bad="$bad $(basename "$t")"
done
is "$bad" "" "every trace reads back (vmtrace stats)"
n=$(ls "$out"/results/*.json | wc -l)
is "$n" 21 "results: 7 traces x (host, sim 6.1, sim 6.8)"
"$B/bin/vmreport" --format json "$out/results/brk_test-host.json" \
	"$out/results/brk_test-sim6.1.json" >"$T/r.json" 2>&1 &&
	grep -q '"vmreplay.vma_count.final"' "$T/r.json"
ok $? "results parse (vmreport --format json)"
# stdout from section 4 up to the blank line before "=== Done"
sed -n '/^=== 4\./,/^=== Done/p' "$T/stdout" | sed '$d' | sed '$d' >"$T/printed"
sed 1d "$out/report.txt" >"$T/saved"
[ -s "$T/saved" ] && cmp -s "$T/printed" "$T/saved"
ok $? "report.txt is the text report printed on stdout"

VMREC_DEMO_OUT=$T/none VMREC_BUILD=$T/nobuild VMREC_SRC=$S sh "$S/mk/demo.sh" \
	>/dev/null 2>"$T/err"
rc=$?
is "$rc:$(cat "$T/err")" "1:demo: $T/nobuild/bin/vmrec is missing: run 'make' first" \
	"a missing build fails with one line"

# A failing step stops the demo with the command, the end of its log and
# where the whole log is.
mkdir -p "$T/fake/bin"
ln -s "$B/lib" "$T/fake/lib"
for t in vmrec vmtrace vmreport; do ln -s "$B/bin/$t" "$T/fake/bin/$t"; done
printf '#!/bin/sh\necho "vmreplay: cannot replay" >&2\nexit 3\n' >"$T/fake/bin/vmreplay"
chmod +x "$T/fake/bin/vmreplay"
VMREC_DEMO_QUICK=1 VMREC_DEMO_OUT=$T/failed VMREC_BUILD=$T/fake VMREC_SRC=$S \
	sh "$S/mk/demo.sh" >"$T/stdout" 2>"$T/err"
rc=$?
sed -n 1p "$T/err" | sed 's/ -q .*//' >"$T/first"
is "$rc:$(cat "$T/first")" "1:demo: failed (exit 3): $T/fake/bin/vmreplay" "a failing replay stops the demo and names the command"
grep -q '^  | vmreplay: cannot replay$' "$T/err" && grep -q "^demo: full log: $T/failed/logs/replay.log$" "$T/err"
ok $? "the failure shows the end of the log and where the log is"
grep -q '^=== 4\.' "$T/stdout"
is "$?" 1 "no report after a failed step"

done_testing

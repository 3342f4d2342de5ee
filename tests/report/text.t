#!/bin/sh
# The text table, byte for byte against tests/report/expected/ (the strace
# way: a failure shows the line that differs).  Fixtures: tests/report/data/.
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
R=$B/bin/vmreport D=tests/report/data E=tests/report/expected

# expect NAME ARGS... : exit status 0 and stdout equal to $E/NAME
expect() {
	name=$1; shift
	"$R" "$@" >"$T/out" 2>"$T/err"
	is "$?" 0 "$name: exit status 0"
	is_file "$T/out" "$E/$name" "$name: exact output"
}

expect two-kernels.txt "$D/brk-6.1.json" "$D/brk-6.8.json"
is "$(cat "$T/err")" "" "two kernels: nothing on stderr"
expect three-kernels.txt "$D/brk-6.1.json" "$D/brk-6.8.json" "$D/brk-6.12.json"
expect tcg-missing-ranges.txt --ranges "$D/brk-6.1.json" "$D/brk-6.8-tcg.json" "$D/brk-6.8-no-munmap.json"
is_file "$T/err" "$E/tcg-missing-ranges.err" "missing metrics: one line naming the file and the metrics"
# a guest's results: the line that recreates them here, never the guest's paths
grep -q '^     reproduce: vmreplay --vm 6.8.0-50-generic --vm-thp always --repeat 5 --json out.json traces/brk-mix.vmt$' "$T/out"
ok $? "a guest's column: its reproduce line is the host's command"
is "$(grep -c '/trace/0/' "$T/out")" 0 "a guest's column: the guest's own command is not offered as a reproduce line"
"$R" "$D/brk-6.1.json" "$D/brk-6.8-tcg-noreproduce.json" >"$T/old" 2>/dev/null
grep -q '^     ran in the guest: /bin/vmreplay --repeat 5 --json /out/0/results.json /trace/0/brk-mix.vmt$' "$T/old" &&
	! grep -q 'reproduce: /bin/vmreplay' "$T/old"
ok $? "a guest's column written without a reproduce line: its command named as the guest's"
expect all-labels.txt --all --label old,new "$D/sig-outlier-a.json" "$D/sig-outlier-b.json"
expect sim-all.txt --all "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json"

# LKP's layout: first column 16 wide, then 27, name after two blanks
line=$(grep 'vmreplay.brk.ops_per_sec' "$E/three-kernels.txt")
case $line in
"    712148 ±  1%      -8.3%     653322 ±  1%      +7.2%     763180 ±  1%  vmreplay."*) ok 0 "columns at LKP's positions" ;;
*) ok 1 "columns at LKP's positions"; diag "$line" ;;
esac
is "$(printf '%s\n' "$line" | awk '{print $4, $8}')" "-8.3% +7.2%" "%change of every column against the first"

# stddev is printed even when below 2%
grep -q 'vmreplay.mmap.ops_per_sec$' "$E/two-kernels.txt" &&
grep 'vmreplay.mmap.ops_per_sec$' "$E/two-kernels.txt" | grep -q '±  0%'
ok $? "a stddev under 2% is still printed"

# the default hides unchanged non-headline metrics; --all shows them
"$R" "$D/brk-6.1.json" "$D/brk-6.8.json" >"$T/def"
"$R" --all "$D/brk-6.1.json" "$D/brk-6.8.json" >"$T/all"
is "$(grep -c 'vmreplay.mmap.latency_ns.p50' "$T/def")" 0 "default: unchanged latency of mmap hidden"
is "$(grep -c 'vmreplay.mmap.latency_ns.p50' "$T/all")" 1 "--all: shown"
is "$(grep -c '^ .*vmreplay\.' "$T/all")" 36 "--all: every metric of the files"

# rows the same in every column are folded into one counted line
"$R" "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >"$T/def"
is "$(grep -c '±  0%      +0.0% .*±  0%  vmreplay\.' "$T/def")" 0 "default: no row the same in every column"
grep -q '^9 more rows folded (the same in every column); --all shows them\.$' "$T/def"
ok $? "default: the folded rows counted in one line"
"$R" --all "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json" >"$T/all"
is "$(grep -c '±  0%      +0.0% .*±  0%  vmreplay\.' "$T/all")" 9 "--all: the rows the same in every column are shown"

# --by-trace: one comparison per trace, each as if compared alone
"$R" --by-trace "$D/brk-6.1.json" "$D/churn-sim-6.1.json" "$D/brk-6.8.json" "$D/other-trace.json" \
	"$D/churn-sim-6.8.json" >"$T/by" 2>"$T/err"
is "$?" 0 "--by-trace: exit status 0"
{ "$R" "$D/brk-6.1.json" "$D/brk-6.8.json"; echo; "$R" "$D/churn-sim-6.1.json" "$D/churn-sim-6.8.json"; } >"$T/want"
is_file "$T/by" "$T/want" "--by-trace: the reports of each trace, in order of first appearance"
is "$(cat "$T/err")" "vmreport: $D/other-trace.json: the only results of trace mmap1.vmt: nothing to compare them with" \
   "--by-trace: a trace with one results file is named"
"$R" --by-trace "$D/brk-6.1.json" "$D/churn-sim-6.1.json" 2>"$T/err" >/dev/null
is "$?" 1 "--by-trace, nothing to compare: exit status 1"
is "$(tail -1 "$T/err")" "vmreport: no two results files of one trace to compare" "--by-trace, nothing to compare: message"
"$R" --by-trace --label a,b,c,d "$D/brk-6.1.json" "$D/churn-sim-6.1.json" "$D/brk-6.8.json" "$D/churn-sim-6.8.json" |
	grep -E '^[abcd] +[abcd]$' >"$T/out"
is "$(tr -s ' ' <"$T/out")" "$(printf 'a c\nb d')" "--by-trace --label: each file keeps its label"

done_testing

#!/bin/sh
# Results of `vmreplay --vm` say what they are: --json OUT with one kernel
# writes OUT, which vmreport compares with the host's; with several kernels
# each file is named on stderr; and the reproduce line vmreport prints for a
# guest's column is a command for this machine (not the guest's paths) that,
# run here, writes that same file again with the same VMA counts and merge
# outcomes.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/vm/vm-setup.sh"
need_built "$B/bin/vmtrace" "$B/bin/vmreport"
V=$B/bin/vmreplay
cd "$T" || exit 1
"$B/bin/vmtrace" synth pthread --iterations 2 -o t.lz4 >/dev/null || fail_all "vmtrace synth failed"

# counts MAIN.json: its trace, kernel, reproduce line and every count metric
# (VMAs, merge outcomes, calls): what a guest's column compares
counts() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {k: v for k, v in d["metrics"].items()
     if k.startswith(("vmreplay.vma_count.", "vmreplay.merge.")) or k.endswith(".calls")}
print(d["vm_kernel"], d.get("reproduce"), sorted(m.items()))' "$1" 2>&1
}

"$V" -q --repeat 2 --json host.json t.lz4 2>"$T/host.err"
ok $? "replayed on this kernel"
"$V" --vm 6.1 -q --repeat 2 --json vm.json t.lz4 2>err
ok $? "replayed in the 6.1 guest"
is "$(ls ./*.json | tr '\n' ' ')" "./host.json ./vm.json " "--vm 6.1 --json vm.json: vm.json, no other file"
is "$(cat err)" "" "one kernel: nothing said on stderr"
"$B/bin/vmreport" host.json vm.json >report 2>report.err
ok $? "vmreport host.json vm.json"
line=$(sed -n '/^  #2 /,/^  #3 /s/^     reproduce: //p' report)
case $line in
"$V --vm $K61 --vm-thp "*" -q --repeat 2 --json vm.json t.lz4") ok 0 "the guest's column: a reproduce line for this machine" ;;
*) ok 1 "the guest's column: a reproduce line for this machine"; diag "reproduce: $line" ;;
esac
is "$(grep -c '/trace/\|/out/' report)" 0 "no guest path in the report"

mv vm.json first.json
sh -c "$line" 2>rerun.err
ok $? "its reproduce line runs here"
is "$(counts vm.json)" "$(counts first.json)" "and writes vm.json again: same kernel, line, VMA counts and outcomes"

# several kernels: a file each, named on stderr, each column recreated by
# its own line
"$V" --vm 6.1,6.12 -q --json r.json t.lz4 2>err >/dev/null
ok $? "replayed in the 6.1 and 6.12 guests"
printf 'vmreplay --vm: wrote r-%s.json (6.1, t.lz4)\nvmreplay --vm: wrote r-%s.json (6.12, t.lz4)\n' "$K61" "$K612" >want
is_file err want "--vm 6.1,6.12 --json r.json: each file it wrote named on stderr"
"$B/bin/vmreport" "r-$K61.json" "r-$K612.json" >report 2>report.err
ok $? "vmreport compares them"
line=$(sed -n '/^  #2 /,$s/^     reproduce: //p' report | head -n 1)
case $line in
"$V --vm $K612 --vm-thp "*" -q --json r-$K612.json t.lz4") ok 0 "the 6.12 column: its own kernel and file" ;;
*) ok 1 "the 6.12 column: its own kernel and file"; diag "reproduce: $line" ;;
esac
mv "r-$K612.json" first.json
sh -c "$line" 2>rerun.err
ok $? "the 6.12 column's line runs here"
is "$(counts "r-$K612.json")" "$(counts first.json)" "and writes r-$K612.json again with the same counts"
done_testing

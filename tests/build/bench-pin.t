#!/bin/sh
# tests/bench/pin.sh: a ratio benchmark that sources it runs again on one
# CPU (these machines' two vCPUs differ by ~45% on mm system calls, and an
# unpinned run stays where it started), BENCH_CPU picks which, and a CPU
# it cannot use leaves the script running unpinned, saying so.
. "$(dirname "$0")/../lib.sh"
command -v taskset >/dev/null 2>&1 || fail_all "taskset (util-linux) is missing"

cat >"$T/probe.sh" <<EOS
set -e
. "$S/tests/bench/pin.sh"
printf "args"; for a; do printf " [%s]" "\$a"; done; echo
sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status
EOS
allowed=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
first=$(echo "$allowed" | sed 's/[^0-9].*//')
last=$(echo "$allowed" | tr ',' '\n' | tail -1 | sed 's/.*-//')

out=$(sh "$T/probe.sh" a 'b c')
is "$out" "args [a] [b c]
$first" "pinned to the first allowed CPU ($first), arguments kept"
out=$(BENCH_CPU=$last sh "$T/probe.sh")
is "$out" "args
$last" "BENCH_CPU=$last pins there"
out=$(BENCH_CPU=99999 sh "$T/probe.sh")
is "$out" "probe.sh: not pinned to one CPU (taskset cannot use CPU 99999): pairs may mix cores
args
$allowed" "a CPU it cannot use: unpinned, and it says so"
done_testing

#!/bin/sh
# Boot and transport of `--vm`, with a stand-in replayer (fake-replay) so
# only the back end is under test: kernels resolved from the store, options
# and traces handed to the guest, stdout/stderr/status/results brought back
# intact over ttyS1, "vm": "qemu-tcg" added, failures explained.  What the
# stand-in does comes from the first line of each trace (fake_replay.c).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/vm/vm-setup.sh"

export VMREC_VM_INIT=$B/bin/vmrec-vminit VMREC_VM_REPLAY=$B/tests/vm/fake-replay-static
export VMREC_VM_HOST_REPLAY=$B/tests/vm/fake-replay-static
run() { "$B/bin/vmreplay" "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
# trace NAME SIZE WHAT: a trace of SIZE bytes telling fake-replay WHAT
trace() { { echo "fake-replay $3"; head -c "$2" /dev/urandom; } | head -c "$2" >"$T/$1"; }
trace trace 1000 "exit 0 bytes 300000"
trace exit3 1000 "exit 3 bytes 0"
trace exit3b 3000 "exit 3 bytes 0"

# two kernels, a large results file
run --vm 6.1,6.12 --per-event --loop=2 --json "$T/r.json" "$T/trace"
is "$(cat "$T/rc")" 0 "two guests: exit status 0"
printf '# kernel 6.1 (qemu-tcg)\nfake-replay: 5 args, trace 1000 bytes\n# kernel 6.12 (qemu-tcg)\nfake-replay: 5 args, trace 1000 bytes\n' >"$T/want"
is_file "$T/out" "$T/want" "two guests: their stdout in order"
is "$(grep -c '^fake-replay: on stderr$' "$T/err")" 2 "two guests: their stderr"
grep '^vmreplay --vm: wrote' "$T/err" >"$T/wrote"
printf 'vmreplay --vm: wrote %s (6.1, %s)\nvmreplay --vm: wrote %s (6.12, %s)\n' \
	"$T/r-$K61.json" "$T/trace" "$T/r-$K612.json" "$T/trace" >"$T/want"
is_file "$T/wrote" "$T/want" "two guests: the name of each results file written on stderr"
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)
# 2 MiB mmaps: 8 of 8 aligned from 6.7 on; before, at most one by chance
for k in "$K61:unaligned" "$K612:aligned"; do
	rel=${k%:*} aligned=${k#*:}
	is "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); a=d["pmd_aligned_2m_of_8"]; print(d["vm"], d["vm_kernel"], d["kernel"], d["trace_bytes"], "aligned" if a == 8 else "unaligned" if a <= 1 else a, len(d["pad"]))' "$T/r-$rel.json" 2>&1)" \
	   "qemu-tcg $rel $rel 1000 $aligned 300000" "results of $rel: marked, its own uname -r, the whole trace arrived, 2 MiB mmaps $aligned"
	[ -n "$thp" ] && is "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["thp"])' "$T/r-$rel.json" 2>&1)" \
	   "$thp" "$rel runs with the host's THP mode ($thp)"
done

# a guest and the host, three traces, a failing replayer that crashes on
# the third
cp "$T/exit3" "$T/crash.trace"
run --vm 6.12,host -q --repeat=2 --json "$T/s.json" -- "$T/exit3" "$T/exit3b" "$T/crash.trace"
is "$(cat "$T/rc")" 3 "guest and host: the first failing exit status"
printf '# kernel 6.12 (qemu-tcg)\nfake-replay: 5 args, trace 1000 bytes\nfake-replay: 5 args, trace 3000 bytes\n# kernel host\nfake-replay: 5 args, trace 1000 bytes\nfake-replay: 5 args, trace 3000 bytes\n' >"$T/want"
is_file "$T/out" "$T/want" "guest and host: one run per trace, in order"
host=$(uname -r)
is "$(cd "$T" && ls s-*.json | sort | tr '\n' ' ')" "s-$K612-0.json s-$K612-1.json s-$host-0.json s-$host-1.json " \
   "one results file per kernel and trace that wrote one"
is "$(head -c 11 "$T/s-$host-0.json")" '{"kernel": ' "host results are not marked as a VM's"
is "$(grep '^vmreplay --vm: wrote ' "$T/err" | sed "s|$T/||g" | tr '\n' ';')" \
   "vmreplay --vm: wrote s-$K612-0.json (6.12, exit3);vmreplay --vm: wrote s-$K612-1.json (6.12, exit3b);vmreplay --vm: wrote s-$host-0.json (host, exit3);vmreplay --vm: wrote s-$host-1.json (host, exit3b);" \
   "every results file written is named, none for the run that wrote none"
is "$(grep -c 'vmreplay --vm: 6.12: the replayer ended by signal 6 in the guest' "$T/err")" 1 \
   "a replayer killed by a signal in the guest is reported"

# one kernel, one trace: exactly the file asked for, and nothing said of it
run --vm 6.12 --json "$T/one.json" "$T/trace"
is "$(cat "$T/rc") $(cd "$T" && ls one*.json)" "0 one.json" "one guest: --json OUT writes OUT"
is "$(grep -c 'wrote' "$T/err")" 0 "one guest: no name to announce"

# a guest that does not finish in time
run --vm 6.12 --vm-timeout 1 "$T/trace"
is "$(cat "$T/rc")" 2 "timeout: exit status 2"
is "$(head -n 1 "$T/err")" "vmreplay --vm: $VMREC_KERNELS/$K612/vmlinuz: the guest did not finish within 1 s and was killed (raise it with --vm-timeout)" "timeout: message"

# bad arguments: no boot
run --vm 4.19 "$T/trace"
is "$(cat "$T/err")" "vmreplay --vm: kernel '4.19': not a file and no release 4.19* in the kernel store $VMREC_KERNELS (fetch it with: $B/bin/vmrec-kernels 4.19)" "unknown release"
run --vm 6.1 "$T/missing"
is "$(cat "$T/err")" "vmreplay --vm: $T/missing: No such file or directory" "missing trace"
run --vm 6.1 --vm-timeout soon "$T/trace"
is "$(head -n 1 "$T/err")" "vmreplay: --vm-timeout: not seconds (1-86400): soon" "bad timeout"
done_testing

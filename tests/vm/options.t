#!/bin/sh
# `vmreplay --vm` reads its command line with vmreplay's one parser
# (replay/options.c): the same options, values and errors as without --vm,
# refused before any guest boots, and exactly the replayer's options reach
# the guest.  Nothing boots: a stand-in qemu notes that it ran, with its
# arguments and the initramfs it was given.
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmreplay
need_built "$V"

cat >"$T/qemu" <<EOF
#!/bin/sh
printf '%s\n' "\$@" >"$T/qemu-args"
while [ \$# -gt 0 ]; do [ "\$1" = -initrd ] && cp "\$2" "$T/initrd"; shift; done
exit 1
EOF
chmod +x "$T/qemu"
echo stub >"$T/stub"
echo kernel >"$T/vmlinuz"
K=$T/vmlinuz
export VMREC_QEMU=$T/qemu VMREC_VM_INIT=$T/stub VMREC_VM_REPLAY=$T/stub
export TMPDIR=$T   # where --vm-keep leaves the work directory
head -c 1000 /dev/urandom >"$T/trace"
head -c 1000 /dev/urandom >"$T/trace2"
# a file named like an option's value, so a parser that takes the last
# argument for the trace finds one
echo 3 >"$T/3"

# the argv of each job in the initramfs the stand-in qemu was given
jobs() {
	python3 - "$T/initrd" <<'EOF'
import sys
d = open(sys.argv[1], 'rb').read()
i = 0
while i + 110 <= len(d):
    size, ns = int(d[i + 54:i + 62], 16), int(d[i + 94:i + 102], 16)
    name = d[i + 110:i + 109 + ns].decode()
    i = (i + 110 + ns + 3) & ~3
    data = d[i:i + size]
    i = (i + size + 3) & ~3
    if name.startswith('jobs/') and name.endswith('/args'):
        print(' '.join(a.decode() for a in data.split(b'\0')[:-1]))
EOF
}
run() { rm -f "$T/qemu-args" "$T/initrd"; (cd "$T" && "$V" "$@") >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
booted() { [ -e "$T/qemu-args" ] && echo booted || echo "no boot"; }

# what the guest gets: the replayer's options in order, not the QEMU back
# end's, not --json (the host names the results file)
run --vm "$K" --vm-mem 2G --per-event --vm-thp never -q --json "$T/out.json" \
    --vm-timeout 60 --loop=2 --vm-keep "$T/trace"
is "$(booted)" booted "options before the trace: the guest boots"
is "$(jobs)" "/bin/vmreplay --per-event -q --loop=2 --json /out/0/results.json /trace/0/trace" \
   "the guest's replayer gets the replayer's options, in order"
is "$(grep -A1 -x -- -m "$T/qemu-args" | tail -n 1)" 2G "--vm-mem is qemu's -m"
grep -q 'transparent_hugepage=never$' "$T/qemu-args"; ok $? "--vm-thp goes on the guest's command line"

run --vm="$K" --strict -- "$T/trace" "$T/trace2"
printf '/bin/vmreplay --strict /trace/0/trace\n/bin/vmreplay --strict /trace/1/trace2\n' >"$T/want"
jobs >"$T/got"
is_file "$T/got" "$T/want" "after --, every argument is a trace: one job each"

# the same errors with and without --vm, and no boot
while IFS='|' read -r args why; do
	# shellcheck disable=SC2086
	run $args
	is "$(cat "$T/rc")" 2 "vmreplay $args: exit status 2"
	cp "$T/err" "$T/err.host"
	# shellcheck disable=SC2086
	run --vm "$K" $args
	is "$(cat "$T/rc"): $(booted)" "2: no boot" "--vm ... $args: exit status 2 before any boot ($why)"
	is_file "$T/err" "$T/err.host" "--vm ... $args: the same message as without --vm"
done <<EOF
trace --repeat 3|an option after the trace
--bogus trace|an unknown option
--repeat 0 trace|a bad count
--placement nowhere trace|a bad value
--repeat trace|an option whose value is missing
--kernel 6.1 trace|--kernel without --target sim
trace trace2|two traces without --
--per-event --json|a value missing at the end
EOF

# the QEMU back end's own options, checked by the same parser
while IFS='|' read -r args want; do
	# shellcheck disable=SC2086
	run $args
	is "$(cat "$T/rc"): $(booted): $(head -n 1 "$T/err")" "2: no boot: $want" "vmreplay $args"
done <<EOF
--vm $K --vm-timeout soon trace|vmreplay: --vm-timeout: not seconds (1-86400): soon
--vm $K --vm-timeout 0 trace|vmreplay: --vm-timeout: not seconds (1-86400): 0
--vm $K --vm-thp sometimes trace|vmreplay: --vm-thp: expected always, madvise or never, got sometimes
--vm-keep trace|vmreplay: --vm-keep needs --vm
--vm-mem 2G trace|vmreplay: --vm-mem needs --vm
--vm , trace|vmreplay: --vm: no kernel named
--vm $K --|vmreplay: expected one TRACE argument
--vm $K --vm-mem|vmreplay: --vm-mem wants a value
EOF

run --vm "$K" --help
is "$(cat "$T/rc"): $(booted)" "0: no boot" "--vm ... --help: exit status 0, no boot"
grep -q -- '--vm-timeout SEC' "$T/out"; ok $? "--help lists the QEMU back end's options"
done_testing

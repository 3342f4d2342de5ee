#!/bin/sh
# Every tool writes its output one way (vmt.h's vmt_output_*, lib/output.h;
# docs/output.md): a symlink at the output's name is replaced, never
# written through; the mode is the documented one whatever the umask; an
# existing output that is not a regular file is refused; an empty name is
# refused in one line; a failed run leaves the old output as it was and
# no temporary file behind.
. "$(dirname "$0")/../lib.sh"
VT=$B/bin/vmtrace VR=$B/bin/vmreplay VP=$B/bin/vmreport
need_built "$VT" "$VR" "$VP"
D=$S/tests/report/data
cd "$T" || exit 1
"$VT" synth brk1 --iterations 20 -o in.lz4 >/dev/null || fail_all "vmtrace synth cannot write a trace"
printf '1 mmap(NULL, 4096, PROT_READ, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f0000000000\n' >s.log

# run NAME OUT : the tool named NAME writing OUT (killed after 60 s: an
# output opened as a FIFO would wait for a reader)
run() {
	case $1 in
	synth) set -- "$VT" synth brk1 --iterations 20 -o "$2" ;;
	import) set -- "$VT" import-strace s.log -o "$2" ;;
	replay) set -- "$VR" -q --target sim --kernel 6.1 --json "$2" in.lz4 ;;
	report) set -- "$VP" -o "$2" "$D/brk-6.1.json" "$D/brk-6.8.json" ;;
	esac
	timeout 60 "$@" >/dev/null 2>err
}

# tool mode
for tm in "synth 600" "import 600" "replay 600" "report 644"; do
	set -- $tm
	name=$1 mode=$2
	echo precious >target
	ln -sf target "$name.out"
	(umask 0; run "$name" "$name.out")
	ok $? "$name: writes over a symlink"
	is "$(cat target)" precious "$name: the symlink's target is untouched"
	ok "$([ -f "$name.out" ] && [ ! -L "$name.out" ]; echo $?)" "$name: the symlink is replaced by a file"
	is "$(stat -c %a "$name.out")" "$mode" "$name: mode $mode under umask 0"
	(umask 077; run "$name" "$name.out")
	is "$(stat -c %a "$name.out")" "$mode" "$name: mode $mode under umask 077"

	ln "$name.out" "$name.keep"
	run "$name" "$name.out"
	ok "$([ "$(stat -c %i "$name.out")" != "$(stat -c %i "$name.keep")" ]; echo $?)" \
		"$name: a new file replaces the old by rename (a hard link keeps the old)"

	mkfifo "$name.fifo"
	run "$name" "$name.fifo"
	st=$?
	ok "$([ $st -ne 0 ] && [ $st -ne 124 ] && [ -p "$name.fifo" ]; echo $?)" \
		"$name: a FIFO as output is refused, not opened (exit $st; 124: it waited)"
	case $(cat err) in
	*"$name.fifo: cannot write: not a regular file") ok 0 "$name: the FIFO refusal says why" ;;
	*) ok 1 "$name: the FIFO refusal says why"; diag "$(cat err)" ;;
	esac

	run "$name" ""
	st=$?
	ok "$([ $st -ne 0 ] && [ "$(wc -l <err)" -eq 1 ]; echo $?)" \
		"$name: an empty output name: non-zero exit ($st), one line"
	grep -q "empty file name" err
	ok $? "$name: the empty name is called that: $(cat err)"
	is "$(ls -A | grep -c 'vmrec-tmp')" 0 "$name: no temporary file left"
done

# a run that fails after it began writing leaves the old output whole
cp "$D/brk-6.1.json" old.json
"$VP" -o old.json "$D/brk-6.1.json" "$D/bad-event.json" >/dev/null 2>&1
cmp -s old.json "$D/brk-6.1.json"
ok $? "report: a failed report leaves the old output as it was"
"$VT" synth brk1 --iterations 20 -o keep.lz4 >/dev/null
cp keep.lz4 keep.copy
printf 'no calls here\n' >empty.log
"$VT" import-strace empty.log -o keep.lz4 >/dev/null 2>&1
cmp -s keep.lz4 keep.copy
ok $? "import: a log with no calls leaves the old trace as it was"
is "$(ls -A | grep -c 'vmrec-tmp')" 0 "no temporary file left anywhere"
done_testing

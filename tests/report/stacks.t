#!/bin/sh
# --explain with a trace recorded with stacks: each diverging event is
# followed by its call stack as vmtrace dump -k prints it; a missing or
# wrong trace costs one note, never the report.
. "$(dirname "$0")/../lib.sh"
R=$B/bin/vmreport V=$B/bin/vmtrace
need_built "$B/lib/libvmrec.so" "$B/bin/vmreplay" "$B/bin/vmreport" "$B/bin/vmtrace"
# Compiled here, not in progs/: frames must not be inlined or tail calls,
# and a sanitizer build's runtime would refuse the recorder's preload.
${CC:-cc} -O1 -g -fno-inline -fno-optimize-sibling-calls -o "$T/stackmap" \
	"$S/tests/report/src/stackmap.c" || fail_all "cannot compile stackmap.c"
# preloaded alone: the event numbers below count from the recorder's
# constructor (under the vmrec launcher the loader's calls come first)
alone() { _o=$1; shift; LD_PRELOAD=$B/lib/libvmrec.so VMREC_OUT=$_o "$@"; }
VMREC_STACKS=16 alone "$T/sm.vmt" "$T/stackmap" 2>"$T/err" ||
	skip_all "vmrec --stacks cannot record here: $(head -1 "$T/err")"
mkdir "$T/res"
for k in 6.1 6.8; do
	"$B/bin/vmreplay" --target sim --kernel $k --per-event -q --json "$T/res/$k.json" \
		"$T/sm.vmt" >/dev/null 2>&1 || { echo "Bail out! vmreplay --target sim --kernel $k"; exit 1; }
done
A=$T/res/6.1.json C=$T/res/6.8.json

# event 3's stack as vmtrace dump -k prints it (the 4th event in seq order)
"$V" dump -k "$T/sm.vmt" 2>/dev/null |
	awk '!/^ > / { n++ } n == 4 && /^ > / { print "   " $0 }' >"$T/want"
grep -q "/stackmap(map_thread_stack+0x" "$T/want" ||
	{ echo "Bail out! vmtrace dump -k: no map_thread_stack frame"; cat "$T/want"; exit 1; }

"$R" --explain "$A" "$C" >"$T/out" 2>"$T/err"
is "$?" 0 "--explain with stacks: exit status 0"
is "$(cat "$T/err")" "" "nothing on standard error"
grep -c '^  event ' "$T/out" >"$T/n"
is "$(cat "$T/n")" 1 "one diverging event"
# (the event, its two sides and their modelled cost: 6.8's stack is VM_NOHUGEPAGE)
sed -n '/^  event 3: mmap(0x[0-9a-f]*, 8192, .*MAP_STACK/,$p' "$T/out" |
	sed -e 1,3d -e '/^    modelled cost /d' -e '/^    cost rule /d' >"$T/got"
is_file "$T/got" "$T/want" "under event 3, its two sides and their cost: its stack, frame by frame as dump -k"
grep -A1 '/stackmap(map_thread_stack+0x' "$T/out" | tail -1 | grep -q '/stackmap(main+0x'
ok $? "the stack names map_thread_stack, called from main"

"$R" --explain -f markdown "$A" "$C" 2>/dev/null |
	awk '/^    - stack:$/ { s = 1; next } s && /^      ```$/ { if (++f == 2) exit; next } f == 1' |
	sed 's/^     //' >"$T/got"
sed 's/^   //' "$T/want" >"$T/want-md"
is_file "$T/got" "$T/want-md" "markdown: the stack in a code block under the event"

"$R" --explain -f json "$A" "$C" >"$T/j" 2>/dev/null
python3 -c 'import json,sys
f = json.load(open(sys.argv[1]))["explain"][0]["first"][0]
print(f["i"]); print("\n".join(f["stack"]))' "$T/j" >"$T/got"
{ echo 3; sed 's/^    > //' "$T/want"; } >"$T/want-json"
is_file "$T/got" "$T/want-json" "json: \"stack\", the frames without \" > \""

"$R" --no-stacks --explain "$A" "$C" >"$T/out" 2>"$T/err"
is "$(grep -c '^    > ' "$T/out")/$(cat "$T/err")" "0/" "--no-stacks: no frames, no note"

# the trace moved away: a note, the report as before without the frames
mkdir "$T/gone"
mv "$T/sm.vmt" "$T/gone/"
"$R" --explain "$A" "$C" >"$T/out" 2>"$T/err"
is "$?" 0 "missing trace: exit status 0"
is "$(cat "$T/err")" "vmreport: note: --explain shows no stacks: $T/sm.vmt: No such file or directory" \
	"missing trace: one note naming it"
is "$(grep -c '^  event 3: ' "$T/out")/$(grep -c '^    > ' "$T/out")" "1/0" "missing trace: the event, no frames"

"$R" --explain --stacks="$T/gone/sm.vmt" "$A" "$C" 2>"$T/err" | grep '^    > ' >"$T/got"
is_file "$T/got" "$T/want" "--stacks=TRACE: the stacks from there"
cp "$T/gone/sm.vmt" "$T/res/"
"$R" --explain "$A" "$C" 2>"$T/err" | grep '^    > ' >"$T/got"
is_file "$T/got" "$T/want" "a trace moved beside the results is found by its name"
rm "$T/res/sm.vmt"

# a trace whose event 3 is another call, and one with fewer events
"$V" synth brk1 --iterations 2 -o "$T/brk.vmt" 2>/dev/null
"$R" --explain --stacks="$T/brk.vmt" "$A" "$C" >"$T/out" 2>"$T/err"
rc=$?
bpid=$("$V" dump "$T/brk.vmt" | awk 'NR == 4 { print $1 }')
pid=$("$V" dump "$T/gone/sm.vmt" | awk 'NR == 4 { print $1 }')
is "$rc/$(cat "$T/err")" "0/vmreport: note: --explain shows no stacks: $T/brk.vmt: event 3 is brk of pid $bpid, the results say mmap of pid $pid: not the trace they were replayed from" \
	"another trace: refused by its event 3's call"
VMREC_STACKS=16 alone "$T/again.vmt" "$T/stackmap" 2>/dev/null
pid2=$("$V" dump "$T/again.vmt" | awk 'NR == 4 { print $1 }')
"$R" --explain --stacks="$T/again.vmt" "$A" "$C" >"$T/out" 2>"$T/err"
is "$(cat "$T/err")" "vmreport: note: --explain shows no stacks: $T/again.vmt: event 3 is mmap of pid $pid2, the results say mmap of pid $pid: not the trace they were replayed from" \
	"the same program recorded again: refused by its pid"
alone "$T/short.vmt" /bin/true 2>/dev/null
n=$("$V" dump "$T/short.vmt" | wc -l)
"$R" --explain --stacks="$T/short.vmt" "$A" "$C" >/dev/null 2>"$T/err"
is "$n/$(cat "$T/err")" "$n/vmreport: note: --explain shows no stacks: $T/short.vmt: ends after $n events, the results name event 3: not the trace they were replayed from" \
	"a shorter trace ($n events): said"
printf 'not a trace' >"$T/junk.vmt"
"$R" --explain --stacks="$T/junk.vmt" "$A" "$C" >/dev/null 2>"$T/err"
is "$?" 0 "a file that is no trace: exit status 0"
case $(cat "$T/err") in "vmreport: note: --explain shows no stacks: $T/junk.vmt: not a vmrec trace"*) ok 0 "... and the reader's one-line message";;
*) ok 1 "... and the reader's one-line message"; diag "$(cat "$T/err")";; esac

# recorded without stacks: nothing by default, a note when --stacks asks
alone "$T/nostack.vmt" "$T/stackmap" 2>/dev/null
for k in 6.1 6.8; do
	"$B/bin/vmreplay" --target sim --kernel $k --per-event -q --json "$T/res/n$k.json" \
		"$T/nostack.vmt" >/dev/null 2>&1 || { echo "Bail out! vmreplay --target sim --kernel $k"; exit 1; }
done
"$R" --explain --stacks "$T/res/n6.1.json" "$T/res/n6.8.json" >"$T/out" 2>"$T/err"
is "$(grep -c '^  event 3: ' "$T/out")/$(grep -c '^    > ' "$T/out")/$(cat "$T/err")" \
	"1/0/vmreport: note: --explain shows no stacks: $T/nostack.vmt: the events listed have none (record with vmrec --stacks)" \
	"--stacks on a trace without stacks: said"
"$R" --explain "$T/res/n6.1.json" "$T/res/n6.8.json" >"$T/out" 2>"$T/err"
is "$(grep -c '^  event 3: ' "$T/out")/$(grep -c '^    > ' "$T/out")/$(cat "$T/err")" "1/0/" \
	"by default a trace without stacks is not remarked on"

done_testing

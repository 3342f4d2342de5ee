#!/bin/sh
# vmtrace top attributes each recorded call to the function that made it.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/symbols/build.sh"
V=$B/bin/vmtrace

top_nolat "$T/cp.vmt" | ours | grep -v load_plugin >"$T/got"
cat >"$T/want" <<END
  events   vmas  call site
       $SPAWN_EVENTS      2  spawn_thread ($(site spawn_thread))
       1      1  alloc_big ($(site alloc_big))
       1      1  main ($(site main))
       1      0  map_unmap ($(site map_unmap.mmap))
       1      0  map_unmap ($(site map_unmap.munmap))
       1      1  plugin_ctor ($(site plugin_ctor))
END
is_file "$T/got" "$T/want" "--by events: direct mmap, malloc, thread stack, plugin constructor"

n=$(top_nolat "$T/cp.vmt" | grep " load_plugin ($(site load_plugin))\$" | awk '{ print $1 }')
[ "${n:-0}" -ge 3 ]; ok $? "dlopen's loader mappings go to load_plugin ($n events)"

top_nolat --by vmas "$T/cp.vmt" | ours | grep -v load_plugin >"$T/got"
cat >"$T/want" <<END
  events   vmas  call site
       $SPAWN_EVENTS      2  spawn_thread ($(site spawn_thread))
       1      1  alloc_big ($(site alloc_big))
       1      1  main ($(site main))
       1      1  plugin_ctor ($(site plugin_ctor))
END
is_file "$T/got" "$T/want" "--by vmas: unmapped ranges leave nothing, the guard page splits the stack"

top_nolat --depth 2 "$T/cp.vmt" | grep '^ *1 *1  alloc_big' >"$T/got"
echo "       1      1  alloc_big ($(site alloc_big)) < main ($(site main.alloc_big))" >"$T/want"
is_file "$T/got" "$T/want" "--depth 2 adds the caller"

"$V" top --by latency "$T/cp.vmt" | grep -v '^#' | awk 'NR > 1 { print $3 }' >"$T/lat"
sort -g -r "$T/lat" | cmp -s - "$T/lat"; ok $? "--by latency ranks by total latency"

# The indices (seq order) of main's mmap and alloc_big's: the first events
# whose innermost frame outside libc/ld.so/libvmrec is in that function.
set -- $("$V" dump -k "$T/cp.vmt" 2>/dev/null | awk '
	/^[0-9]/ { n++; found = 0; next }
	/^ > / && !found && !/libc\.so|ld-linux|libvmrec/ {
		found = 1
		if (main == "" && /\(main\+0x/) main = n - 1
		if (alloc == "" && /\(alloc_big\+0x/) alloc = n - 1
	}
	END { print main, alloc }')
main_i=$1 alloc_i=$2
[ -n "$alloc_i" ]; ok $? "dump -k finds main's event ($main_i) and alloc_big's ($alloc_i)"
# those two did not merge; extra keys and nested values are skipped
cat >"$T/r.json" <<END
{"kernel": "6.18", "per_event": [
  {"i": $main_i, "op": "mmap", "outcome": "new", "vma_count": 40, "errno": 0},
  {"i": $((main_i + 1)), "op": "mmap", "outcome": "expand_prev", "extra": {"a": [1, "x"]}},
  {"op": "munmap", "i": $((main_i + 2)), "outcome": "remove", "errno": 0},
  {"i": $alloc_i, "outcome": "new", "vma_count": 41, "errno": null}
]}
END
"$V" top --by outcome=new --results "$T/r.json" "$T/cp.vmt" | ours | cut -c1-8,30- >"$T/got"
cat >"$T/want" <<END
  events   new  call site
       1     1  alloc_big ($(site alloc_big))
       1     1  main ($(site main))
END
is_file "$T/got" "$T/want" "--by outcome=new counts the events a results file says merged with nothing"
"$V" top --results "$T/r.json" "$T/cp.vmt" 2>/dev/null | head -n 1 >"$T/got"
is "$(cat "$T/got")" "# new: merged with nothing in $T/r.json" "the header says where the new column comes from"

# Without --results, the new column is the simulator's: what a replay in
# its host profile gives, the same as that replay's results file.
"$B/bin/vmreplay" -q --target sim --kernel host --per-event --json "$T/sim.json" "$T/cp.vmt"
ok $? "vmreplay --target sim --kernel host replays the trace"
"$V" top "$T/cp.vmt" 2>/dev/null >"$T/own"
"$V" top --results "$T/sim.json" "$T/cp.vmt" 2>/dev/null >"$T/given"
is "$(head -n 1 "$T/own")" "# new: merged with nothing, replayed in the simulator's host profile (--results R.json: another replay's)" \
	"without --results: the header says the simulator's host profile counted it"
sed 1d "$T/own" >"$T/got"; sed 1d "$T/given" >"$T/want"
is_file "$T/got" "$T/want" "... and the table is the one --results with that replay gives"
n=$(awk 'NR > 2 && $4 ~ /^[0-9]+$/ && $4 > 0' "$T/own" | wc -l)
[ "$n" -gt 0 ]; ok $? "some call sites made new VMAs ($n rows), none shows -"
"$V" top --by outcome=new "$T/cp.vmt" 2>/dev/null | sed 1,2d >"$T/got"
"$V" top --by outcome=new --results "$T/sim.json" "$T/cp.vmt" 2>/dev/null | sed 1,2d >"$T/want"
is_file "$T/got" "$T/want" "--by outcome=new works without --results"

# When it cannot be counted, the header says why and how to get it.
mkdir "$T/lone" && cp "$V" "$T/lone/vmtrace"
"$T/lone/vmtrace" top "$T/cp.vmt" 2>/dev/null >"$T/out"
is "$(head -n 1 "$T/out")" "# new: - (no vmreplay beside vmtrace ($T/lone/vmreplay); give --results R.json from vmreplay --per-event)" \
	"no vmreplay beside vmtrace: the header says so"
is "$(awk 'NR > 2 { print $4 }' "$T/out" | sort -u)" "-" "... and the column shows -"
"$T/lone/vmtrace" top --by outcome=new "$T/cp.vmt" >/dev/null 2>"$T/err"
is "$?:$(wc -l <"$T/err" | tr -d ' ')" "1:1" "--by outcome=new then fails with one line"
"$V" synth brk_test --iterations 6000 -o "$T/big.vmt" >/dev/null
"$V" top "$T/big.vmt" 2>/dev/null | head -n 1 >"$T/got"
is "$(cat "$T/got")" "# new: - (not replayed in the simulator: 102003 events, over 100000; give --results R.json from vmreplay --per-event)" \
	"a trace over 100000 events is not replayed for it, and the header says so"

done_testing

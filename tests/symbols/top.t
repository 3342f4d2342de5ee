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

"$V" top --by latency "$T/cp.vmt" | awk 'NR > 1 { print $3 }' >"$T/lat"
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

done_testing

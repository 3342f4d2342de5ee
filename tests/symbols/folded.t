#!/bin/sh
# vmtrace top --folded prints what flamegraph.pl reads: "outer;...;inner N".
. "$(dirname "$0")/../lib.sh"
. "$S/tests/symbols/build.sh"
V=$B/bin/vmtrace

"$V" top --folded "$T/cp.vmt" >"$T/folded"; ok $? "--folded exits 0"
bad=$(grep -cvE '^[^ ;]+(;[^ ;]+)* [0-9]+$' "$T/folded")
is "$bad" 0 "every line is frames joined by ';', a space and an integer count"

sum=$(awk '{ s += $NF } END { print s }' "$T/folded")
events=$("$V" dump "$T/cp.vmt" | grep -c '^[0-9]')
is "$sum" "$events" "the counts add up to the trace's events"

grep -qE '(^|;)main;load_plugin;(.*;)?plugin_ctor(;[^; ]+)+ 1$' "$T/folded"
ok $? "outermost first: main, load_plugin, the loader, plugin_ctor, then the wrapper or the recorder"

"$V" top --folded --depth 1 "$T/cp.vmt" | grep -E '^(main|alloc_big|spawn_thread|plugin_ctor);' |
	awk '{ sub(/;.*/, "", $1); n[$1] += $2 } END { for (f in n) print f, n[f] }' | sort >"$T/got"
printf '%s\n' "alloc_big 1" "main 1" "plugin_ctor 1" "spawn_thread $SPAWN_EVENTS" >"$T/want"
is_file "$T/got" "$T/want" "--depth 1 starts each stack at its call site"

"$V" top --folded --by vmas "$T/cp.vmt" | grep -c 'map_unmap' >"$T/n"
is "$(cat "$T/n")" 0 "--by vmas leaves out stacks that left nothing mapped"

done_testing

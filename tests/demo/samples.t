#!/bin/sh
# The bundled sample traces (traces/samples/): each one is listed in the
# README, validates, and replays in the simulator's profile of the kernel it
# was recorded on and on this kernel with every checkpoint matched.
. "$(dirname "$0")/../lib.sh"

need_built "$B/bin/vmreplay" "$B/bin/vmtrace"
dir=$S/traces/samples
n=0
for t in "$dir"/*.lz4; do
	name=$(basename "$t" .lz4)
	n=$((n + 1))
	grep -q "^| \`$name.lz4\` | " "$dir/README.md"
	ok $? "$name: README says how it was recorded"
	"$B/bin/vmtrace" check "$t" >"$T/out" 2>&1
	ok $? "$name: vmtrace check"
	"$B/bin/vmreplay" -q --strict --target sim --kernel host "$t" >"$T/out" 2>&1
	ok $? "$name: replays in the simulator (host profile) with every checkpoint matched"
	"$B/bin/vmreplay" -q --strict "$t" >"$T/out" 2>&1
	ok $? "$name: replays on this kernel with every checkpoint matched"
done
is "$n" 6 "six samples"
size=$(cat "$dir"/*.lz4 | wc -c)
[ "$size" -lt 262144 ]
ok $? "samples stay small ($size bytes < 256 KiB)"

done_testing

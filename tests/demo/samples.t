#!/bin/sh
# The bundled sample traces (traces/samples/): each one is listed in the
# README, validates, and replays in the simulator's profile of the kernel it
# was recorded on and on this kernel with every checkpoint matched.
. "$(dirname "$0")/../lib.sh"

[ -x "$B/bin/vmreplay" ] || skip_all "no build in $B"
dir=$S/traces/samples
# Known gaps: the recorded exit checkpoint holds one VMA more than any
# replay makes (--stacks, and jemalloc preloaded).  TODO: TAP reports them
# but they fail nothing until the recorder is fixed.
known_gap() {
	case $1 in
	python3-import-json-stacks | python3-jemalloc)
		echo "exit checkpoint one VMA above the replay" ;;
	esac
}
# check STATUS NAME SAMPLE : ok, or a TODO test for a sample with a known gap
check() {
	gap=$(known_gap "$3")
	if [ -z "$gap" ]; then ok "$1" "$2"; return; fi
	_n=$((_n + 1))
	[ "$1" -eq 0 ] && r=ok || r="not ok"
	echo "$r $_n - $2 # TODO $gap"
}

n=0
for t in "$dir"/*.lz4; do
	name=$(basename "$t" .lz4)
	n=$((n + 1))
	grep -q "^| \`$name.lz4\` | " "$dir/README.md"
	ok $? "$name: README says how it was recorded"
	"$B/bin/vmtrace" check "$t" >"$T/out" 2>&1
	ok $? "$name: vmtrace check"
	"$B/bin/vmreplay" -q --strict --target sim --kernel host "$t" >"$T/out" 2>&1
	check $? "$name: replays in the simulator (host profile) with every checkpoint matched" "$name"
	"$B/bin/vmreplay" -q --strict "$t" >"$T/out" 2>&1
	check $? "$name: replays on this kernel with every checkpoint matched" "$name"
done
is "$n" 6 "six samples"
size=$(cat "$dir"/*.lz4 | wc -c)
[ "$size" -lt 262144 ]
ok $? "samples stay small ($size bytes < 256 KiB)"

done_testing

#!/bin/sh
# Data flows one way: shim -> traces -> {kernel | simulator | QEMU} ->
# results -> report.  No #include runs against it: each part of the tree
# names only headers of itself and of the parts below it (lib/ is what
# several tools share; the simulator does not reach into the replayer).
. "$(dirname "$0")/../lib.sh"
cd "$S" || exit 1
allowed() {
	case "$1" in
	traces/*)     echo "traces" ;;
	lib/*)        echo "lib traces" ;;
	shim/*)       echo "shim traces" ;;
	replay/sim/*) echo "replay/sim lib traces" ;;
	replay/*)     echo "replay lib traces" ;;
	analysis/*)   echo "analysis lib traces" ;;
	*)            echo "*" ;;
	esac
}
files=$(git ls-files 'traces/*.[ch]' 'lib/*.[ch]' 'shim/*.[chS]' 'replay/*.[ch]' 'analysis/*.[ch]' 2>/dev/null ||
	find traces lib shim replay analysis -name '*.[chS]')
ok "$([ -n "$files" ]; echo $?)" "the sources are found"
incdir() { sed -n 's|^#[[:space:]]*include[[:space:]]*"\([a-z_/]*[a-z_]\)/[^/"]*"$|\1|p' "$1"; }
bad=
for f in $files; do
	ok_dirs=$(allowed "$f")
	for inc in $(incdir "$f"); do
		fine=
		for d in $ok_dirs; do
			case "$inc" in "$d" | "$d"/*) fine=1 ;; esac
		done
		[ -n "$fine" ] || bad="$bad $f:$inc"
	done
done
is "${bad# }" "" "no include against the flow"
# a file outside the rules cannot hide: the check itself catches one
printf '#include "analysis/vmtrace.h"\n#include "vmt.h"\n#include "replay/sim/sim.h"\n' >"$T/probe.c"
inc=$(incdir "$T/probe.c")
is "$(echo $inc)" "analysis replay/sim" "the include pattern sees directory-qualified includes only"
done_testing

#!/bin/sh
# Residency before calls that change or remove pages: exactly the pages
# the program touched, minus those it dropped (splits.c).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"

record "$T/run.lz4" "$P/splits" >/dev/null
"$TC" -a "$T/run.lz4" | sed -n '/ munmap 0 0 /,$p' |
	awk '$1 == "residency" { r = "pages " $5 " resident " $7; next }
	     $3 ~ /^(mprotect|madvise|munmap)$/ { print $3, $5, (r ? r : "none"); r = "" }
	     $3 == "munmap" && $5 == "0xa000" { exit }' >"$T/got"
cat >"$T/want" <<'W'
munmap 0 none
mprotect 0x2000 pages 2 resident 2
madvise 0x2000 pages 2 resident 2
madvise 0xa000 pages 10 resident 8
mprotect 0x2000 pages 2 resident 2
munmap 0x1000 pages 1 resident 1
munmap 0xa000 pages 10 resident 7
W
is_file "$T/got" "$T/want" "residency records precede the calls, with the right pages"
done_testing

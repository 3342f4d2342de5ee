#!/bin/sh
# A fresh anonymous private mapping holds no page until a fault of this
# process puts one there (empty_ranges.c): released untouched, it needs no
# page-table scan; touched by another thread, filled by MAP_POPULATE or
# read once (the zero page), its records are exactly what a scan of every
# range gives.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$P/fresh_maps"

recs() {   # TRACE: residency records and the calls they precede, no addresses
	"$TC" -r "$1" | sed -n '/ munmap 0 0 /,$p' |
		awk '$1 == "residency" { $1 = $2 = $3 = ""; r = $0; next }
		     $3 ~ /^(munmap|mprotect)$/ { print $3, $5, r; r = "" }'
}
record "$T/f.lz4" "$P/fresh_maps" 3
VMREC_RESIDENCY=scan record "$T/s.lz4" "$P/fresh_maps" 3
recs "$T/f.lz4" >"$T/got"
recs "$T/s.lz4" >"$T/scan"
is_file "$T/got" "$T/scan" "the same records as scanning every range"
cat >"$T/want" <<'W'
munmap 0 
munmap 0x100000 
munmap 0x100000 
munmap 0x100000 
mprotect 0x800000 
munmap 0x100000    pages 256 resident 1 3+1
munmap 0x10000    pages 16 resident 16 0+16
mprotect 0x100000 
munmap 0x100000    pages 256 resident 1 5+1
W
if carries_asan "$P/fresh_maps"; then
	skip "fresh_maps built with AddressSanitizer: ASan unmaps memory of its own around the thread"
else
	is_file "$T/got" "$T/want" "exactly the pages touched"
fi

if ! have_strace; then
	skip "strace cannot trace here"
else
	strace -f -qq -e trace=ioctl -o "$T/st" env LD_PRELOAD="$LIB" VMREC_OUT="$T/x.lz4" \
		"$P/fresh_maps" 200 >/dev/null
	scans=$(grep -c 'ioctl([0-9]*, .*0x66, 0x10, \|PAGEMAP_SCAN' "$T/st")
	ok "$([ "$scans" -lt 50 ]; echo $?)" "200 untouched releases: $scans page-table scans (< 50)"
fi
done_testing

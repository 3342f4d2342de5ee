#!/bin/sh
# Residency records by runs (docs/trace-format.md, RESIDENCY): a malloc1
# loop, each freed 128 MiB block with its first page resident, costs at
# most 8 bytes per event (a bitmap per block was 2,066), and every record
# reads back exactly: one page, runs written as runs, scattered pages
# (where the bitmap is the smaller coding).  And the records are those a
# scan of every range gives.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$P/malloc_free" "$B/bin/vmtrace"
# what is counted is glibc's malloc mapping and unmapping each block;
# ASan's allocator replaces it (and poisons 16 MiB of shadow a block)
carries_asan "$P/malloc_free" && skip_all "malloc_free built with AddressSanitizer: its allocator is not glibc's"

record "$T/m.lz4" "$P/malloc_free" 5000
"$B/bin/vmtrace" check "$T/m.lz4" >/dev/null
ok $? "the trace checks"
bpe=$("$B/bin/vmtrace" stats --json "$T/m.lz4" | sed -n 's/.*"bytes_per_event": *\([0-9.]*\).*/\1/p')
ok "$(awk "BEGIN { exit !($bpe <= 8) }"; echo $?)" "malloc1 loop: $bpe bytes per event (<= 8)"

# the records of a short loop, exactly
record "$T/s.lz4" "$P/malloc_free" 3
"$TC" -r "$T/s.lz4" | sed -n '/ munmap 0 0 /,$p' |
	awk '$1 == "residency" { $1 = $2 = $3 = ""; r = $0; next }
	     $3 == "munmap" { print "munmap", $5, r; r = "" }' >"$T/got"
{
	echo "munmap 0 "
	for i in 1 2 3; do echo "munmap 0x8001000    pages 32769 resident 1 0+1"; done
	echo "munmap 0x8000000    pages 32768 resident 19 100+10 5000+1 32760+8"
	printf 'munmap 0x40000    pages 64 resident 32'
	i=1; while [ $i -lt 64 ]; do printf ' %d+1' $i; i=$((i + 2)); done
	echo
} >"$T/want"
is_file "$T/got" "$T/want" "the residency records read back page for page"

VMREC_RESIDENCY=scan record "$T/scan.lz4" "$P/malloc_free" 3
"$TC" -r "$T/scan.lz4" | grep '^residency' | cut -d' ' -f4- >"$T/scan"
"$TC" -r "$T/s.lz4" | grep '^residency' | cut -d' ' -f4- >"$T/plain"
is_file "$T/plain" "$T/scan" "the same records as scanning every range"
done_testing

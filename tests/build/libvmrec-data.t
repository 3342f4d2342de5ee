#!/bin/sh
# libvmrec.so's zero-initialised data lies in its file, smallest first
# (shim/libvmrec-data.ld, shim/data-order.sh): the small variables every
# recorded process writes at start-up (locks, pointers, counters) share
# a page or two, not each a page of its own among the buffers of
# kilobytes (each page written is a page fault, in every process).
. "$(dirname "$0")/../lib.sh"
need_built "$B/lib/libvmrec.so"
L=$B/lib/libvmrec.so

# the section's range, then every variable in it of at most 64 bytes
range=$(readelf -SW "$L" | sed -n 's/^ *\[ *[0-9]*\] *//p' | awk '$1 == ".data.zeroed" { print $3, $5 }')
[ -n "$range" ]
ok $? "libvmrec.so has its .bss in the file (.data.zeroed: ${range:-none})"
nm -S "$L" | awk -v r="$range" '
	function hex(s,   v, i) {
		s = tolower(s); v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	BEGIN { split(r, a, " "); lo = hex(a[1]); hi = lo + hex(a[2]) }
	NF == 4 && $3 ~ /^[bBdD]$/ {
		at = hex($1); size = hex($2)
		if (at >= lo && at < hi && size <= 64) { n++; pages[int(at / 4096)] = 1 }
	}
	END { for (p in pages) np++; print n + 0, np + 0 }' >"$T/small"
read n np <"$T/small"
[ "$n" -ge 50 ]
ok $? "there are many small variables ($n)"
[ "$np" -le 2 ]
ok $? "they lie on at most 2 pages ($np)"
done_testing

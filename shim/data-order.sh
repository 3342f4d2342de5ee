#!/bin/sh
# data-order.sh [-h "NAME..."] OBJECT|ARCHIVE... - libvmrec's
# zero-initialised data in order of size, smallest first, as
# linker-script input section lines (INCLUDEd by shim/libvmrec-data.ld).  The small variables are the ones
# every process writes at start-up (locks, pointers, counters); in the
# order the objects happen to come they lie among buffers of kilobytes,
# each on a page of its own, and each page written is a fault.  Objects
# built with -fdata-sections give a section per variable (.bss.NAME);
# an object's whole .bss (an archive member's too) is named by its file.
# -h: the buffers of a page or more (.bss.NAME) that start-up writes in
# every process, in that order, right after the small variables (under
# 2 KiB): each one's head then shares a page with the one before.
LC_ALL=C
export LC_ALL
hot=
if [ "$1" = -h ]; then
	hot=$2
	shift 2
fi
readelf -SW "$@" | awk '
	function hex(s,   v, i) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	/^File: / {
		f = $2
		if (f ~ /\(.*\)$/) {   # an archive member: lib.a(obj.o)
			m = f; sub(/^.*\(/, "", m); sub(/\)$/, "", m)
			a = f; sub(/\(.*$/, "", a); sub(/^.*\//, "", a)
			whole = "*" a ":" m "(.bss)"
		} else {
			o = f; sub(/^.*\//, "", o)
			whole = "*" o "(.bss)"
		}
		next
	}
	{ sub(/^ *\[ *[0-9]+\] */, "") }
	$2 == "NOBITS" && $1 ~ /^\.bss($|\.)/ {
		size = hex($5)
		pat = $1 == ".bss" ? whole : "*(" $1 ")"
		if (size > 0 && !(pat in seen)) { seen[pat] = 1; printf "%d %s\n", size, pat }
	}' | sort -n -k1,1 -k2,2 | awk -v hot="$hot" '
	BEGIN { n = split(hot, h, " "); for (i = 1; i <= n; i++) is_hot["*(.bss." h[i] ")"] = 1 }
	{ seen[$2] = 1 }
	$2 in is_hot { next }
	$1 < 2048 { print $2; next }
	{ big[++nbig] = $2 }
	END {
		for (i = 1; i <= n; i++)
			if (("*(.bss." h[i] ")") in seen)
				print "*(.bss." h[i] ")"
		for (i = 1; i <= nbig; i++)
			print big[i]
	}'

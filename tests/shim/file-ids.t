#!/bin/sh
# file-ids: the recorder names each file once per process (a FILE record)
# and gives every mapping of it that id: with a few files, which stay in
# a first table of one page, and with hundreds, which spill into the big
# one; a fork child starts its own table.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$P/many_files"

for n in 5 400; do
	mkdir "$T/d$n"
	out=$(record "$T/f$n.lz4" "$P/many_files" $n "$T/d$n")
	is "$out" mapped "$n files: runs as natively"
	"$TC" -a "$T/f$n.lz4" >"$T/f$n.tc"
	parent=$(awk '$1 == "process" { print $2; exit }' "$T/f$n.tc")
	# the parent's mmaps of the files, in order: their ids
	awk -v p="$parent" -v d="$T/d$n/" '$1 == "file" && $2 == p && index($4, d) == 1 { name[$3] = $4 }
		$1 == p && $3 == "mmap" { for (i = 4; i <= NF; i++) if ($i ~ /^file=/) { id = substr($i, 6); if (id in name) print id, name[id] } }' \
		"$T/f$n.tc" >"$T/ids$n"
	is "$(wc -l <"$T/ids$n")" $((2 * n)) "$n files: each mapping of them has its file's id"
	is "$(sort -u "$T/ids$n" | wc -l)" "$n" "$n files: one id per file, the same at every mapping"
	is "$(awk '{ print $2 }' "$T/ids$n" | sort | uniq -d | wc -l)" "$n" "$n files: each mapped twice under its id"
	names=$(awk -v p="$parent" -v d="$T/d$n/" '$1 == "file" && $2 == p && index($4, d) == 1' "$T/f$n.tc" | wc -l)
	is "$names" "$n" "$n files: one FILE record each in the parent"
	child=$(awk -v p="$parent" -v d="$T/d$n/f0" '$1 == "file" && $2 != p && $4 == d' "$T/f$n.tc" | wc -l)
	is "$child" 1 "$n files: the fork child names the file it maps again"
done
done_testing

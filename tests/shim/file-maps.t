#!/bin/sh
# file mappings: the calls match strace, and each file-backed mmap names
# the file through a file record.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
have_strace || skip_all "strace cannot trace here"

is "$(record "$T/run.lz4" "$P/file_maps" "$T/data")" "PASS" "the program's self-check passes"
same_as_strace file_maps "$P/file_maps" "$T/data"
id=$("$TC" -a "$T/run.lz4" | awk -v f="$T/data" '$1 == "file" && $4 == f { print $3 }')
ok $([ -n "$id" ]; echo $?) "a file record names the scratch file"
n=$("$TC" "$T/run.lz4" | grep -c " mmap .* file=$id\$")
is "$n" 2 "both mmaps of it carry its file id"
done_testing

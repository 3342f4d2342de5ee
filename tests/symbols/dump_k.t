#!/bin/sh
# vmtrace dump -k prints each event's stack the way strace -k does:
#  " > /path/to/object(function+0xoff) [0xaddress-in-object]"
. "$(dirname "$0")/../lib.sh"
. "$S/tests/symbols/build.sh"
V=$B/bin/vmtrace

"$V" dump -k "$T/cp.vmt" >"$T/dump" 2>/dev/null; ok $? "dump -k exits 0"
# main's mmap: the first event with a frame in main right after libc's
# wrapper (the recorder shows the wrapper its hook replaced)
awk '/^[0-9]/ { n = 0; next } { n++ } n > 1 && /\(main\+0x/ { print prev; print; exit } { prev = $0 }' \
	"$T/dump" >"$T/main"
head -1 "$T/main" | grep -qE '^ > /[^ ]*/libc\.so\.6\((__mmap|mmap64|mmap)\+0x[0-9a-f]+\) \[0x[0-9a-f]+\]$'
ok $? "the frame inside main's mmap is libc's wrapper"

# main+OFF must sit at main's address in the binary plus OFF
line=$(sed -n 2p "$T/main")
off=$(echo "$line" | sed -n 's/.*(main+0x\([0-9a-f]*\)) \[0x\([0-9a-f]*\)\]$/\1 \2/p')
main=$(nm "$T/bin/callpaths" | awk '$3 == "main" { print $1 }')
set -- $off
is "$(printf '%x' $((0x$main + 0x${1:-0})))" "${2:-none}" "main+0x$1 is main's address + offset in the file"
case $line in " > $T/bin/callpaths(main+0x"*) ok 0 "the caller is main, named by path";;
*) ok 1 "the caller is main, named by path"; diag "$line";; esac

bad=$(grep -v '^[0-9]' "$T/dump" | grep -cvE '^ > ([^ ]+\([^ ]*\) \[0x[0-9a-f]+\]|\[unknown\] \[0x[0-9a-f]+\])$')
is "$bad" 0 "every stack line has the strace -k form"

done_testing

#!/bin/sh
# traces/samples/record.sh - record the bundled sample traces again, into
# the directory of this script (README.md says what each one is).
#   VMREC_BUILD=build sh traces/samples/record.sh
# The commands run from /tmp so their paths do not depend on the checkout.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
B=$(cd "${VMREC_BUILD:-$here/../../build}" && pwd)
vmrec=$B/bin/vmrec
PY=/usr/bin/python3
JEMALLOC=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2
work=$(mktemp -d "${TMPDIR:-/tmp}/vmrec-samples.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
printf '#include <stdio.h>\nint main(void) { puts("hello"); return 0; }\n' >hello.c

rec() { # NAME [vmrec options] -- PROGRAM ARGS
	name=$1
	shift
	"$vmrec" -o "$here/$name.lz4" "$@"
	echo "$name.lz4: $(wc -c <"$here/$name.lz4") bytes"
}
rec python3-import-json -- $PY -c 'import json'
rec python3-import-json-stacks --stacks -- $PY -c 'import json'
rec python3-threads -- $PY -c 'import threading; ts=[threading.Thread(target=bytearray, args=(1<<20,)) for _ in range(8)]; [t.start() for t in ts]; [t.join() for t in ts]'
rec sh-pipeline -- /bin/sh -c 'ls /usr/bin | sort | wc -l >/dev/null'
rec cc-compile -- cc -O2 -c hello.c -o hello.o
LD_PRELOAD=$JEMALLOC rec python3-jemalloc -- $PY -c 'x=[bytearray(1<<16) for _ in range(500)]; del x'

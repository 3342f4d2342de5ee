#!/bin/sh
# The stand-in directory is removed when the replay is interrupted
# (SIGTERM, SIGINT), not only at a normal exit.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
file 100 1 8192 /usr/lib/lib.so
ev 100 mmap 0 0x2000 1 0x2 3 0 = 0x20000000 file=1
ev 100 munmap 0x20000000 0x2000 0 0 0 0 = 0
EOF2
} | mk files

for sig in TERM INT; do
	mkdir "$T/$sig"
	TMPDIR="$T/$sig" "$V" -q --duration 60 "$T/files.vmt" &
	pid=$!
	# wait for the stand-in directory to appear (at most ~10 s)
	n=0
	while [ -z "$(ls -A "$T/$sig")" ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
	[ -n "$(ls -A "$T/$sig")" ]
	ok $? "SIG$sig: the stand-in directory exists while replaying"
	kill -$sig $pid
	wait $pid
	status=$?
	[ $status -gt 128 ]
	ok $? "SIG$sig: vmreplay died of the signal (status $status)"
	is "$(ls -A "$T/$sig")" "" "SIG$sig: the stand-in directory is gone"
done
done_testing

#!/bin/sh
# A recorded memfd ("/memfd:NAME (deleted)") gets a memfd as its stand-in:
# shmem, as the recorded file was, so what the kernel allows only on
# shmem works on its mappings here too (userfaultfd's MISSING and MINOR
# registrations: uffd-unit-tests' shmem tests).  A regular file's
# stand-in stays a file in the stand-in directory.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
file 100 1 16384 /memfd:uffd-test
file 100 2 8192 /usr/lib/two.so
ev 100 mmap 0 0x4000 3 0x1 3 0 = 0x20000000 file=1
ev 100 mmap 0 0x2000 1 0x2 4 0 = 0x20010000 file=2
ck 100 4 8 1
EOF2
} | mk memfd

mkdir "$T/tmp"
TMPDIR="$T/tmp" VMREPLAY_DUMP_MAPS=1 "$V" -q --strict "$T/memfd.vmt" 2>"$T/maps"
ok $? "replayed as recorded"
grep -q ' /memfd:vmreplay-standin (deleted)$' "$T/maps"
ok $? "the memfd's stand-in is a memfd"
grep -q " $T/tmp/vmreplay\.[^/]*/f1\$" "$T/maps"
ok $? "the regular file's is a file in the stand-in directory"
is "$(ls -A "$T/tmp")" "" "the stand-in directory is removed"

# more memfds than the descriptor limit leaves room for: those past it
# get files in the stand-in directory, opened when mapped (as
# standin-fds.t's files), and the replay runs
N=300
{ base_map
  i=1
  while [ $i -le $N ]; do
	echo "file 100 $i 4096 /memfd:m$i"
	printf 'ev 100 mmap 0x%x 0x1000 3 0x1 3 0 = 0x%x file=%d\n' \
		$((0x20000000 + (i - 1) * 8192)) $((0x20000000 + (i - 1) * 8192)) $i
	i=$((i + 1))
  done
  echo "ck 100 4 $((N + 6)) 1"
} | mk many
(ulimit -n 128 && TMPDIR="$T/tmp" "$V" -q --strict "$T/many.vmt") >"$T/out" 2>&1
is "$?:$(cat "$T/out")" "0:" "$N memfds under ulimit -n 128: every one mapped"
done_testing

#!/bin/sh
# Stand-in descriptors: a trace naming one file in many records shares one
# descriptor for all of them, and a trace mapping more distinct files than
# the descriptor limit opens the rest when they are mapped, one at a time
# ("Too many open files" replaying the kernel's mdwe_test).  Run under a
# hard descriptor limit of 128.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

N=300
# N records of one file (one inode), each mapped MAP_SHARED at the next
# page: one struct file, so all N merge into one VMA.
{ base_map
  i=1
  while [ $i -le $N ]; do
	echo "file 100 $i 4096 /usr/lib/same.so ino=77"
	printf 'ev 100 mmap 0x%x 0x1000 1 0x11 3 0x%x = 0x%x file=%d\n' \
		$((0x20000000 + (i - 1) * 4096)) $(((i - 1) * 4096)) $((0x20000000 + (i - 1) * 4096)) $i
	i=$((i + 1))
  done
  echo "ck 100 4 7 1"
} | mk same
(ulimit -n 128 && "$V" -q --strict "$T/same.vmt") >"$T/out" 2>&1
is "$?:$(cat "$T/out")" "0:" "$N records of one file under ulimit -n 128: one descriptor, one merged VMA"

# N distinct files, each mapped once, a page apart (no merging)
{ base_map
  i=1
  while [ $i -le $N ]; do
	echo "file 100 $i 4096 /usr/lib/f$i.so"
	printf 'ev 100 mmap 0x%x 0x1000 1 0x12 3 0 = 0x%x file=%d\n' \
		$((0x20000000 + (i - 1) * 8192)) $((0x20000000 + (i - 1) * 8192)) $i
	i=$((i + 1))
  done
  echo "ck 100 4 $((N + 6)) 1"
} | mk many
mkdir "$T/tmp"
(ulimit -n 128 && TMPDIR="$T/tmp" "$V" -q --strict "$T/many.vmt") >"$T/out" 2>&1
is "$?:$(cat "$T/out")" "0:" "$N distinct files under ulimit -n 128: every one mapped from its stand-in"
(ulimit -n 128 && "$V" -q --strict --loop 2 --target sim "$T/many.vmt") >"$T/out" 2>&1
is "$?:$(cat "$T/out")" "0:" "the simulator too"
is "$(ls -A "$T/tmp")" "" "the stand-in directory is removed"
done_testing

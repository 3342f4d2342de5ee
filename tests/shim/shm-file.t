#!/bin/sh
# shmat's event names its SysV segment by a FILE record: ino = the shmid
# (as /proc/PID/maps shows it), size = shm_segsz, path SYSV<key>; one per
# call, and the program's results are unchanged.  The launcher names a
# static program's segments the same way.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/shim.sh"
PROG=$B/tests/replay/progs/shm_lock
SP=$B/tests/shim/static_shm
need_built "$PROG" "$SP" "$B/bin/vmrec"
"$PROG" >"$T/native" 2>&1
[ $? -eq 77 ] && skip_all "SysV shared memory unavailable here ($(cat "$T/native"))"

record "$T/s.lz4" "$PROG" >"$T/out" 2>&1
is "$(cat "$T/out")" "PASS" "the program's results are unchanged"
"$TC" -a "$T/s.lz4" >"$T/all"
# per shmat: its segment's record as "path ino-is-shmid size", in call order
cat >"$T/names.py" <<'PY'
import sys
files = {}
for l in open(sys.argv[1]):
    w = l.split()
    if w[0] == "file":
        files[w[2]] = w[3:6]
    elif len(w) > 3 and w[2] == "shmat":
        path, ino, size = files.get(w[-1].replace("file=", ""), ["-", "-", "-"])
        print(path, "ino=shmid" if ino == "ino=%d" % int(w[3], 16) else ino, size)
PY
python3 "$T/names.py" "$T/all" >"$T/got"
cat >"$T/want" <<'EOF2'
SYSV00000000 ino=shmid size=12388
SYSV00000000 ino=shmid size=12388
SYSV00000000 ino=shmid size=12388
EOF2
is_file "$T/got" "$T/want" "each shmat names its segment: ino = shmid, size = shm_segsz"

"$B/bin/vmrec" -o "$T/l.lz4" -- "$SP" >"$T/out" 2>&1
is "$?:$(cat "$T/out")" "0:PASS" "under the launcher, a static program: results unchanged"
"$TC" -a "$T/l.lz4" >"$T/all"
python3 "$T/names.py" "$T/all" >"$T/got"
printf 'SYSV00000000 ino=shmid size=12388\nSYSV00000000 ino=shmid size=12388\n' >"$T/want"
is_file "$T/got" "$T/want" "the launcher's shmat events name the segment as libvmrec's do"
grep -c ' shmat .* LAUNCHER file=' "$T/all" | grep -qx 2
ok $? "both are the launcher's"
done_testing

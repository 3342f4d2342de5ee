# Helpers for tests/replay/*.t (sourced after tests/lib.sh).
V=$B/bin/vmreplay
# the system python: a version-manager shim would cost a second per call
PYTHON=/usr/bin/python3
[ -x "$PYTHON" ] || PYTHON=$(command -v python3)
MK=$B/tests/replay/progs/mktrace
need_built "$V" "$MK"

# mk NAME < SCRIPT : write $T/NAME.vmt from a mktrace script
mk() { "$MK" "$T/$1.vmt" || echo "# mktrace failed for $1"; }

# per_event JSON : "pid op outcome vma_count mismatch" per replayed event
per_event() {
	"$PYTHON" -c '
import json, sys
for e in json.load(open(sys.argv[1]))["per_event"]:
    print(e["pid"], e["op"], e["outcome"], e["vma_count"], "MISMATCH" if e["mismatch"] else "ok")
' "$1"
}

# metric JSON NAME : the metric's values, space separated
metric() {
	"$PYTHON" -c '
import json, sys
print(" ".join(str(v) for v in json.load(open(sys.argv[1]))["metrics"][sys.argv[2]]))
' "$1" "$2"
}

# The standard initial map used by most tests: 4 program VMAs, a [vdso]
# (counted, not rebuilt) and one recorder VMA (not counted).
base_map() {
	cat <<'MAP'
process 100 1 0
map 100
vma 0x10000000 0x10001000 r-- exe
vma 0x10001000 0x10003000 rw-
vma 0x10100000 0x10102000 rw- [heap]
vma 0x30000000 0x30021000 rw- [stack]
vma 0x40000000 0x40002000 r-x [vdso]
vma 0x50000000 0x50001000 rw- rec
end
ck 100 1 6 1
MAP
}

#!/bin/sh
# Traces recorded by vmrec replay with perfect fidelity (--strict) in
# --placement recorded: the shim's test programs, a python3 start-up with a
# thread, and a shell that forks and execs.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"
REC=$B/bin/vmrec
need_built "$REC" "$B/lib/libvmrec.so"

# replay_strict NAME CMD... : record CMD, replay it --strict
replay_strict() {
	name=$1
	shift
	if ! "$REC" -o "$T/$name.vmt" -- "$@" >/dev/null 2>&1 && [ ! -s "$T/$name.vmt" ]; then
		ok 1 "$name: recorded"
		return
	fi
	"$V" --strict "$T/$name.vmt" >"$T/$name.out" 2>&1
	ok $? "$name: $(grep '^fidelity: checkpoints' "$T/$name.out")"
}

for p in fork_threads file_maps spawn_exec threads_malloc errno_kept; do
	prog=$B/tests/shim/progs/$p
	[ -x "$prog" ] || { ok 1 "$p: $prog is built"; continue; }
	# a sanitized program refuses any library preloaded before its runtime
	if ldd "$prog" 2>/dev/null | grep -q 'libasan'; then
		skip "$p: built with AddressSanitizer, cannot be recorded"
		continue
	fi
	replay_strict "$p" "$prog"
done
PY=$PYTHON
replay_strict python "$PY" -c 'import threading, json; t = threading.Thread(target=lambda: [bytearray(1 << 20) for _ in range(8)]); t.start(); t.join()'
replay_strict shell /bin/sh -c '/bin/ls / >/dev/null; /bin/true'
done_testing

#!/bin/sh
# Traces of process trees pass the trace library's own consistency check
# (every event's process announced, sequence numbers unique, ...).
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"
need_built "$B/bin/vmtrace"

for p in spawn_exec fork_threads threads_malloc dlopen_loop; do
	record "$T/$p.lz4" "$P/$p" >/dev/null
	"$B/bin/vmtrace" check "$T/$p.lz4" >"$T/out" 2>&1
	ok $? "$p: vmtrace check passes"
	grep -v ': OK: ' "$T/out" | sed 's/^/# /'
done
done_testing

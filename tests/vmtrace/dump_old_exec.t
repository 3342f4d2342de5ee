#!/bin/sh
# Traces without ARGV records (format versions 1 and 2) print execve as
# they always did: version 1 (traces/samples) its three registers,
# version 2 the file name of its FILE record and two addresses.
# data/v2-exec.lz4: a version 2 recorder's `sh -c 'exec /bin/true x'`.
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace
need_built "$V"

"$V" dump "$S/traces/samples/sh-pipeline.lz4" | grep ' execve(' >"$T/got"
cat >"$T/want" <<'W'
17415 execve(0x5600f8c3dea0, 0x5600f8c3dd20, 0x5600f8c3dd30) = 0
17414 execve(0x5600f8c3df58, 0x5600f8c3dd40, 0x5600f8c3dd58) = 0
17416 execve(0x5600f8c3dfb8, 0x5600f8c3dd38, 0x5600f8c3dd70) = 0
W
is_file "$T/got" "$T/want" "version 1: execve's registers"
"$V" dump "$S/tests/vmtrace/data/v2-exec.lz4" | grep ' execve(' >"$T/got"
echo '14319 execve("/bin/true", 0x55f2ec627900, 0x55f317280b58) = 0' >"$T/want"
is_file "$T/got" "$T/want" "version 2: the file name, argv and envp as addresses"
"$V" check "$S/tests/vmtrace/data/v2-exec.lz4" | grep -q ': OK: '
ok $? "the version 2 trace checks"
done_testing

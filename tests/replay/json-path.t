#!/bin/sh
# --json OUT is checked before the replay starts: an unwritable path is one
# line and exit 2, with no replay done (this trace's replay would say its
# mismatch on stderr); a path that works is not left behind by the check.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; echo 'ev 100 mprotect 0x20000000 0x1000 1 0 0 0 = 0'; echo 'ck 100 4 6 1'; } | mk failhere
"$V" -q --json "$T/none/out.json" "$T/failhere.vmt" >"$T/out" 2>"$T/err"
is "$?:$(cat "$T/out" "$T/err")" "2:vmreplay: $T/none/out.json: cannot write: No such file or directory" \
	"a missing directory: one line, exit 2, before the replay"
mkdir "$T/dir.json"
"$V" -q --json "$T/dir.json" "$T/failhere.vmt" >"$T/out" 2>"$T/err"
is "$?:$(cat "$T/out" "$T/err")" "2:vmreplay: $T/dir.json: cannot write: Is a directory" "a directory: the same"
"$V" -q --json "$T/ok.json" "$T/failhere.vmt" 2>/dev/null
"$PYTHON" -c 'import json, sys; json.load(open(sys.argv[1]))' "$T/ok.json"
ok $? "a writable path gets the results"
done_testing

#!/bin/sh
# --placement recorded puts every mapping at its recorded address (offset 0
# when the replayer's own memory is elsewhere); --placement kernel lets
# this kernel place non-fixed mmaps, and later calls follow them through
# the address map.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x3000 3 0x22 -1 0 = 0x20000000
ev 100 mprotect 0x20001000 0x1000 1 0 0 0 = 0
ck 100 4 9 1
ev 100 munmap 0x20000000 0x3000 0 0 0 0 = 0
ck 100 4 6 1
EOF2
} | mk place

"$V" -q --strict --per-event --json "$T/rec.json" "$T/place.vmt"
ok $? "recorded placement: strict fidelity"
got=$("$PYTHON" -c 'import json,sys; e=json.load(open(sys.argv[1]))["per_event"][0]; print(hex(e["result"]), hex(e["recorded_result"]))' "$T/rec.json")
is "$got" "0x20000000 0x20000000" "recorded placement: mmap lands at the recorded address"

"$V" -q --strict --placement kernel --per-event --json "$T/ker.json" "$T/place.vmt"
ok $? "kernel placement: strict fidelity"
got=$("$PYTHON" -c 'import json,sys; e=json.load(open(sys.argv[1]))["per_event"][0]; print(e["result"] != e["recorded_result"])' "$T/ker.json")
is "$got" "True" "kernel placement: this kernel chose another address"
per_event "$T/ker.json" >"$T/got"
cat >"$T/want" <<'EOF2'
100 mmap new 6 ok
100 mprotect split 8 ok
100 munmap remove 5 ok
EOF2
is_file "$T/got" "$T/want" "kernel placement: later calls follow the mapping"

"$V" --placement nowhere "$T/place.vmt" 2>"$T/err"
is "$?" 2 "bad --placement: exit 2"
is "$(head -1 "$T/err")" "vmreplay: --placement: expected recorded or kernel, got nowhere" "bad --placement: message"
done_testing

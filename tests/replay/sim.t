#!/bin/sh
# --target sim drives the simulator through the same driver: same address
# translation, same outcome vocabulary, "target": "sim" and the profile
# name in the results.  On a plain sequence the host profile agrees with
# this kernel call by call.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/replay-lib.sh"

{ base_map; cat <<'EOF2'
ev 100 mmap 0 0x4000 3 0x22 -1 0 = 0x20000000
ev 100 mprotect 0x20001000 0x2000 1 0 0 0 = 0
ev 100 munmap 0x20002000 0x1000 0 0 0 0 = 0
ev 100 mmap 0 0x1000 3 0x22 -1 0 = 0x1ffff000
ev 100 fork 0 0 0 0 0 0 = 101
process 101 100 0
ev 101 munmap 0x20000000 0x1000 0 0 0 0 = 0
ck 101 3 9 1
ev 100 brk 0x10104000 0 0 0 0 0 = 0x10104000
ck 100 4 9 1
EOF2
} | mk s

"$V" -q --strict --per-event --json "$T/k.json" "$T/s.vmt"
ok $? "kernel: checkpoints match"
"$V" -q --strict --target sim --kernel host --per-event --json "$T/s.json" "$T/s.vmt"
ok $? "sim host: checkpoints match"
per_event "$T/k.json" >"$T/kernel"
per_event "$T/s.json" >"$T/sim"
is_file "$T/sim" "$T/kernel" "sim host: the same outcome and VMA count for every call"
is "$("$PYTHON" -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["target"], d["kernel"] != "", all("rule" in e for e in d["per_event"]))' "$T/s.json")" \
   "sim True True" "sim: target, profile name and a rule field per event"
done_testing

#!/bin/sh
# VMA-count checkpoints: at start, on request (vmrec_checkpoint), at exit;
# the counts follow the program's mappings and name the recorder's own.
. "$(dirname "$0")/../lib.sh"
. "$S/tests/shim/shim.sh"

is "$("$P/checkpoint_req")" native "without the recorder the program runs alone"
is "$(record "$T/c.lz4" "$P/checkpoint_req")" recorded "the recorder exports vmrec_checkpoint"
"$TC" -a "$T/c.lz4" | awk '$1 == "checkpoint" { print $4 }' | tr '\n' ' ' >"$T/reasons"
is "$(cat "$T/reasons")" "1 4 3 " "checkpoints: start, request, exit"
set -- $("$TC" -a "$T/c.lz4" | awk '$1 == "checkpoint" { print $6 }')
ok $([ "$2" -gt "$1" ]; echo $?) "the request sees the first mapping ($1 -> $2)"
ok $([ "$3" -gt "$2" ]; echo $?) "the exit count has the second mapping ($2 -> $3)"
set -- $("$TC" -a "$T/c.lz4" | awk '$1 == "checkpoint" { print $8 }')
ok $([ "$1" -ge 3 ] && [ "$1" = "$3" ]; echo $?) "recorder VMAs counted ($1), the same at start and exit"
done_testing

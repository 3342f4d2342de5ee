#!/bin/sh
# docs/kernel-profiles.md's rule and profile tables are what
# `vmreplay --list-rules` and `--list-profiles` print (replay/sim/rules.def
# and profiles[]), and its "in detail" table has one row per rule in the
# same order: the page and the code cannot drift apart.
. "$(dirname "$0")/../lib.sh"

replay=$B/bin/vmreplay
doc=$S/docs/kernel-profiles.md
need_built "$replay"

# table HEADER-START: the rows of the markdown table whose header line
# starts with HEADER-START, as tab-separated fields
table() {
	awk -v h="$1" '
		index($0, h) == 1 { on = 1; getline; next }
		on && !/^\|/ { exit }
		on { sub(/^\| /, ""); sub(/ \|$/, ""); gsub(/ \| /, "\t"); print }' "$doc"
}

"$replay" --list-rules >"$T/rules"
ok $? "vmreplay --list-rules"
[ -s "$T/rules" ]
ok $? "it lists rules"
table '| id | releases |' >"$T/doc-rules"
is_file "$T/doc-rules" "$T/rules" "the doc's rule table is --list-rules"

cut -f1 "$T/rules" >"$T/ids"
table '| id | in detail |' | cut -f1 >"$T/doc-ids"
is_file "$T/doc-ids" "$T/ids" "the doc's detail table has every rule once, in order"
sort "$T/ids" | uniq -d >"$T/dups"
is "$(cat "$T/dups")" "" "no rule id twice"

"$replay" --list-profiles >"$T/profiles"
ok $? "vmreplay --list-profiles"
grep -v '^host	' "$T/profiles" >"$T/releases"
table '| profile | stands for |' >"$T/doc-profiles"
is_file "$T/doc-profiles" "$T/releases" "the doc's profile table is --list-profiles (but host)"
is "$(tail -n 1 "$T/profiles" | cut -f1)" "host" "host comes last"

# --kernel names the listed profiles when it is given another
"$replay" -q --target sim --kernel 6.5 "$S/traces/samples/cc-compile.lz4" >"$T/out" 2>&1
[ $? -ne 0 ] && grep -qF "(known: $(cut -f1 "$T/profiles" | paste -sd, -))" "$T/out"
ok $? "an unknown profile is refused with the listed names"
done_testing

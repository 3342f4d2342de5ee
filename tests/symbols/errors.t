#!/bin/sh
# vmtrace top: bad arguments and bad files give one line and a non-zero exit.
. "$(dirname "$0")/../lib.sh"
need_built "$B/bin/vmtrace"
V=$B/bin/vmtrace

# fails STATUS NAME CMD...: exits STATUS with exactly one line on stderr
fails() {
	want=$1 name=$2; shift 2
	"$@" >/dev/null 2>"$T/err"; st=$?
	is "$st:$(wc -l <"$T/err")" "$want:1" "$name"
	[ "$st:$(wc -l <"$T/err")" = "$want:1" ] || diag "$(cat "$T/err")"
}
"$V" top --help >"$T/out" 2>&1; is "$?:$(head -c 19 "$T/out")" "0:usage: vmtrace top " "--help: the usage on stdout, exit 0"
fails 2 "no trace" "$V" top
fails 2 "--by with an unknown key" "$V" top --by colour t.vmt
fails 2 "--depth 0" "$V" top --depth 0 t.vmt
fails 1 "a trace that does not exist" "$V" top "$T/nope.vmt"
printf 'not a trace at all\n' >"$T/junk.vmt"
fails 1 "a file that is not a trace" "$V" top "$T/junk.vmt"
echo '{"per_event": [{"i": 0, "outcome": }]}' >"$T/bad.json"
fails 1 "a results file that does not parse" "$V" top --results "$T/bad.json" "$T/junk.vmt"
grep -q "bad.json: per_event entry 0 does not parse" "$T/err"; ok $? "... names the file and the entry"
echo '{"results": []}' >"$T/none.json"
fails 1 "a results file without per_event" "$V" top --results "$T/none.json" "$T/junk.vmt"

done_testing

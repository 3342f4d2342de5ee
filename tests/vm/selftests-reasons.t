#!/bin/sh
# tests/vm/selftests.t never fails without saying why: a replay on this
# kernel that ends badly prints what vmreplay said, and a comparison that
# cannot be made names its reason in the failing test's line.  Checked
# with a stand-in vmreplay, so no selftest needs building.
. "$(dirname "$0")/../lib.sh"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
cat >"$T/vmreplay" <<'FAKE'
#!/bin/sh
echo "vmreplay: t.lz4: the replay of pid 42 ended abnormally (signal 9); its remaining events are skipped" >&2
exit 1
FAKE
chmod +x "$T/vmreplay"
V=$T/vmreplay
. "$S/tests/vm/selftests-lib.sh"

# run the library's steps in a TAP stream of their own, to look at it
(
	_n=0 _failed=0
	kreplay mlock2-tests "$T/t.lz4" "$T/k.json"
	echo '{"per_event": []}' >"$T/s.json"
	compare "host vs sim host: mlock2-tests" "$T/k.json" "$T/s.json"
) >"$T/out" 2>&1
grep -q '^# mlock2-tests: vmreplay exited 1; it said:$' "$T/out"
ok $? "a failed replay is named, with its status"
grep -q '^#   vmreplay: t.lz4: the replay of pid 42 ended abnormally (signal 9)' "$T/out"
ok $? "and what vmreplay said"
line=$(grep '^not ok' "$T/out")
case $line in
*"mlock2-tests: selftests_cmp: "*"no usable per_event results"*) ok 0 "the failing comparison says why: $line" ;;
*) ok 1 "the failing comparison says why"; diag "$(cat "$T/out")" ;;
esac
# prove shows a test's stderr without -v: a CI log says why only if the
# reasons are there
(
	_n=0 _failed=0
	kreplay mlock2-tests "$T/t.lz4" "$T/k.json"
	compare "host vs sim host: mlock2-tests" "$T/k.json" "$T/s.json"
) >/dev/null 2>"$T/err"
grep -q '^# mlock2-tests: vmreplay exited 1; it said:$' "$T/err" &&
	grep -q '^#   vmreplay: t.lz4: the replay of pid 42 ended abnormally' "$T/err"
ok $? "the reasons are on stderr, which prove shows"
done_testing

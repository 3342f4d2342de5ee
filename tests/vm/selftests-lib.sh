# selftests-lib.sh - what tests/vm/selftests.t does with each replay,
# here so that tests/vm/selftests-reasons.t can check that every failure
# says why.  Needs V (vmreplay), PY, S and T set, and tests/lib.sh.

# compare WHAT KERNEL.json SIM.json: one test; counts into the totals.
# The comparison's last line, or its error, is the test's reason.
NSELF=0 NEV=0
# Known gaps, each with what is missing: the comparison still runs and
# prints every differing event, as a TAP TODO (docs/kernel-profiles.md,
# "Known gaps").  A gap that closes shows as "unexpectedly succeeded".
# A case "*vs sim host: NAME (REL)") echo "what is missing" ;;
gap_of() {
	case $1 in
	esac
}
compare() {
	"$PY" "$S/tests/vm/selftests_cmp.py" "$2" "$3" >"$T/cmp" 2>&1
	r=$?
	gap=$(gap_of "$1")
	if [ -n "$gap" ]; then
		_n=$((_n + 1))
		echo "$([ $r -eq 0 ] || echo 'not ')ok $_n - $1: $(tail -n 1 "$T/cmp") # TODO $gap"
	else
		ok $r "$1: $(tail -n 1 "$T/cmp")"
	fi
	if [ $r -eq 0 ]; then sed '$d' "$T/cmp"; else sed '$d' "$T/cmp" >&2; fi
	n=$(tail -n 1 "$T/cmp" | sed -n 's/^\([0-9]*\) events compared.*/\1/p')
	NSELF=$((NSELF + 1)) NEV=$((NEV + ${n:-0}))
}

# sim PROFILE TRACE OUT.json: a failure's first lines as comments
sim() {
	timeout 120 "$V" -q --target sim --kernel "$1" --per-event --json "$3" "$2" >/dev/null 2>"$T/sim.err" ||
		sed 's/^/# /' "$T/sim.err" | head -n 5 >&2
}

# kreplay NAME TRACE OUT.json: on this kernel, in at most 2 GiB (the
# mlock selftests populate what they lock; one replay once took the
# machine's memory), with --strict: its status in KSTRICT.  A replay that
# fails (an abnormal end, a trace refused, a timeout) says how and what
# vmreplay said; one that differs from its recording says by how much.
KSTRICT=0
kreplay() {
	timeout 120 "$V" -q --strict --mem-limit 2G --per-event --json "$3" "$2" >/dev/null 2>"$T/k.err"
	r=$?
	KSTRICT=$r
	# status 1 of a whole replay ("complete": true) is --strict's verdict,
	# which strict() reports
	[ $r -eq 1 ] && "$PY" -c 'import json, sys; sys.exit(not json.load(open(sys.argv[1]))["complete"])' "$3" 2>/dev/null && r=0
	if [ $r -ne 0 ]; then
		diag "$1: vmreplay exited $r$([ $r -eq 124 ] && echo ' (timed out after 120 s)'); it said:"
		grep -v '^ ' "$T/k.err" | tail -n 8 | sed 's/^/#   /' >&2
	fi
	grep -q 'failed when recorded\|succeeded when recorded' "$T/k.err" &&
		diag "$1: the kernel replay differs from the recording: $(grep -c 'recorded' "$T/k.err") events (e.g. $(grep -m 1 'recorded' "$T/k.err" | sed 's/^vmreplay: [^:]*: //'))"
	return 0
}

# hugepages_for NAME N: where N > 0, the pool of default-size huge pages
# set to N (the pool NAME set up for itself when recorded, and put back at
# its exit: a setting, not a VMA call, so no trace holds it) for a replay
# here; 0 when it is there (hugepages_back puts the old one back), 1 when
# this machine cannot give it (not root, or memory too fragmented).
HP=/proc/sys/vm/nr_hugepages HP_SAVED=
hugepages_for() {
	HP_SAVED=
	[ "${2:-0}" -gt 0 ] || return 0
	HP_SAVED=$(cat "$HP" 2>/dev/null) || return 1
	echo "$2" 2>/dev/null >"$HP" || { HP_SAVED=; return 1; }
	free=$(awk '/^HugePages_Free:/ { print $2 }' /proc/meminfo)
	[ "${free:-0}" -ge "$2" ] && return 0
	hugepages_back
	return 1
}
hugepages_back() {
	[ -z "$HP_SAVED" ] || echo "$HP_SAVED" >"$HP"
	HP_SAVED=
}

# strict WHAT: one test, the last kreplay's --strict verdict (a gap of
# gap_of is a TODO); the calls that differed from the recording are in
# vmreplay's lines above, printed by kreplay.
strict() {
	gap=$(gap_of "$1")
	_n=$((_n + 1))
	echo "$([ "$KSTRICT" -eq 0 ] || echo 'not ')ok $_n - $1${gap:+ # TODO $gap}"
	[ "$KSTRICT" -eq 0 ] || [ -n "$gap" ] || _failed=$((_failed + 1))
}

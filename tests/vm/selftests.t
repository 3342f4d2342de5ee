#!/bin/sh
# The simulator against the kernel's own mm selftests.  Each selftest of
# tools/testing/selftests/mm (vm before 6.3) that runs in a few seconds is
# built at test time from Debian's linux-source-RELEASE package
# (tests/vm/selftests-build.sh; no selftest code is kept here), run once
# natively, recorded with vmrec (the recording must give the selftest's own
# result), then replayed with --per-event on a kernel and in the
# simulator's profile for that kernel, and every event compared: outcome,
# VMA count, errno and result (tests/vm/selftests_cmp.py).  The replays
# on this kernel pass --strict too (each a test).
#
# - this kernel: the newest bookworm source not newer than it and the
#   newest Debian source (unstable's, fetched into the build tree), against
#   the `host` profile;
# - real 6.1 and 6.12 under QEMU (tests/vm/vm-setup.sh finds or fetches
#   them): each release's own selftests, against the 6.1 and 6.12 profiles.
#
# The selftests and events compared are printed to stderr (make check shows
# them).  `make selftests` runs this test alone and verbosely.
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmreplay REC=$B/bin/vmrec
[ -x "$V" ] && [ -x "$REC" ] || { ok 1 "vmreplay and vmrec are built"; done_testing; exit; }
carries_asan "$V" && skip_all "vmreplay is built with AddressSanitizer: its shadow memory takes the addresses the selftests map"
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)

# selftest            releases   (mm/ of 6.12 and 7.2, vm/ of 6.1)
SELFTESTS='
mremap_test           6.1 6.12 7.2
mremap_dontunmap      6.1 6.12 7.2
mlock2-tests          6.1 6.12 7.2
map_fixed_noreplace   6.1 6.12 7.2
map_populate          6.1 6.12 7.2
mrelease_test         6.1 6.12 7.2
madv_populate         6.1 6.12 7.2
mseal_test            6.12 7.2
mdwe_test             6.12 7.2
mkdirty               6.12 7.2
droppable             6.12 7.2
guard-regions         7.2
merge                 7.2
uffd-unit-tests       7.2
prctl_thp_disable     7.2
ksm_functional_tests  7.2
process_madv          7.2
pfnmap                7.2
'
# The newest kernel source Debian has (unstable), fetched into the build
# tree (tests/vm/selftests-fetch.sh): its selftests run on this kernel too.
NEWEST=7.2
# Not run, and why (the rest of the directory needs hugetlb pages,
# userfaultfd, KSM, debugfs's gup_test, THP collapse or more than a few
# seconds):
#   seal_elf            seals every VMA /proc/self/maps lists, the recorder's
#                       own and [vdso]/[vvar] with them, which no replay
#                       rebuilds where they were
#   protection_keys, pkey_sighandler_tests   pkeys (this CPU has no PKU)
#   soft-dirty          needs CONFIG_MEM_SOFT_DIRTY (skips here)
#   on-fault-limit      as root it skips (tests RLIMIT_MEMLOCK)
#   mlock-random-test   random sizes against RLIMIT_MEMLOCK, which the
#                       simulator does not model
# Default-size huge pages a selftest sets up for itself and puts back at
# its exit (uffd-unit-tests: twice its 32 MiB area, uffd_setup_hugetlb):
# its replay on this kernel gets the same pool, else its hugetlb mmaps
# fail with ENOMEM there.
HUGEPAGES='
uffd-unit-tests       32
'
hugepages_of() { echo "$HUGEPAGES" | awk -v n="$1" '$1 == n { print $2 }'; }
selftests_of() { echo "$SELFTESTS" | awk -v r="$1" 'NF { for (i = 2; i <= NF; i++) if ($i == r) print $1 }'; }

# build REL: the selftests of REL into $B/selftests/REL/bin; sets BUILT
build() {
	BUILT=
	sh "$S/tests/vm/selftests-build.sh" "$1" "$B/selftests/$1" $(selftests_of "$1") \
		>"$T/build-$1.log" 2>"$T/build-$1.err" || return 1
	BUILT=$(sed -n 's/^built //p' "$T/build-$1.log")
	sed -n 's/^cannot build /# cannot build /p' "$T/build-$1.log"
	return 0
}

# record REL NAME: $T/REL-NAME.lz4; 0, or 1 with the reason printed.  The
# recording must end as the native run did (exit status, kselftest totals,
# the failing tests): a selftest newer than this kernel may fail some of
# its tests natively (7.2's process_madv), and is judged when it fails
# them the same way recorded.  Both run in the binary's directory (a test
# may exec itself from there: ksm_functional_tests).
record() {
	bin=$B/selftests/$1/bin/$2 tr=$T/$1-$2.lz4 dir=$B/selftests/$1/bin
	(cd "$dir" && timeout 120 "$bin" >"$T/$1-$2.native" 2>&1)
	nrc=$?
	(cd "$dir" && timeout 120 "$REC" -o "$tr" -- "$bin" >"$T/$1-$2.recorded" 2>&1)
	rrc=$?
	ntot=$(grep '^# Totals' "$T/$1-$2.native") rtot=$(grep '^# Totals' "$T/$1-$2.recorded")
	nfail=$(grep '^not ok' "$T/$1-$2.native") rfail=$(grep '^not ok' "$T/$1-$2.recorded")
	if [ "$nrc" -eq 4 ]; then
		echo "# $1 $2: skips itself natively here (KSFT_SKIP): $(grep -m 1 -i 'skip\|not' "$T/$1-$2.native")"
		return 1
	fi
	if [ "$rrc" -ne "$nrc" ] || [ "$ntot" != "$rtot" ] || [ "$nfail" != "$rfail" ]; then
		# the recorder changed what the program did (its own mappings
		# beside the program's, issue 15): not a trace to judge by
		diag "$1 $2: the recording changed its result: exit $rrc ($rtot), natively $nrc ($ntot)"
		diff "$T/$1-$2.native" "$T/$1-$2.recorded" | grep '^[<>] not ok' | sed 's/^/#   /' >&2
		return 1
	fi
	if [ "$nrc" -ne 0 ] && [ -z "$nfail" ]; then
		diag "$1 $2: fails natively here (exit $nrc) without naming a test: $(tail -n 1 "$T/$1-$2.native")"
		return 1
	fi
	[ "$nrc" -eq 0 ] ||
		echo "# $1 $2: fails natively here as recorded (newer than this kernel): $(echo "$nfail" | head -n 1)"
	return 0
}

. "$S/tests/vm/selftests-lib.sh"

# ---- this kernel -------------------------------------------------------
host=$(uname -r)
hrel=$(echo "$host" | sed 's/^\([0-9]*\.[0-9]*\).*/\1/')
# the newest release with a Debian source not newer than this kernel
src_rel=
for r in 6.12 6.1; do
	if [ "$(printf '%s\n%s\n' "$r" "$hrel" | sort -V | head -n 1)" = "$r" ]; then src_rel=$r; break; fi
done
if [ "$src_rel" != "$hrel" ]; then
	note "this kernel is $host: bookworm has no linux-source-$hrel (6.1 and 6.12, bookworm-backports 6.12); the $src_rel selftests run on it, and unstable's $NEWEST"
fi
HOST_SELF=0 HOST_EV=0
if [ -z "$src_rel" ]; then
	skip "this kernel ($host) is older than every Debian source package"
fi
for rel in $src_rel $NEWEST; do
	NSELF=0 NEV=0
	if ! build "$rel"; then
		skip "the $rel selftests cannot be had: $(tail -n 1 "$T/build-$rel.err")"
		continue
	fi
	for n in $BUILT; do
		record "$rel" "$n" || { skip "$n ($rel) not recorded faithfully here"; continue; }
		pages=$(hugepages_of "$n")
		hugepages_for "$n" "${pages:-0}" ||
			{ skip "$n ($rel): its replay needs $pages huge pages, which this machine cannot give now"; continue; }
		kreplay "$n" "$T/$rel-$n.lz4" "$T/k$rel-$n.json"
		hugepages_back
		strict "--strict on this kernel: $n ($rel)"
		sim host "$T/$rel-$n.lz4" "$T/s$rel-$n.json"
		compare "$host vs sim host: $n ($rel)" "$T/k$rel-$n.json" "$T/s$rel-$n.json"
	done
	echo "selftests: $NSELF of $rel's mm selftests, $NEV events, compared on this kernel ($host) with the simulator's host profile" >&2
	HOST_SELF=$((HOST_SELF + NSELF)) HOST_EV=$((HOST_EV + NEV))
done

# ---- real 6.1 and 6.12 under QEMU --------------------------------------
if [ -z "${VMREC_KERNELS:-}" ] && [ ! -d "$B/kernels" ]; then
	note "no kernels (make kernels, or VMREC_KERNELS): real 6.1 and 6.12 not compared"
	done_testing
	exit
fi
# vm-setup.sh skips a whole test (1..0 # SKIP why) when QEMU or the
# kernels cannot be had: here only this part
(. "$S/tests/vm/vm-setup.sh"; echo "kernels $K61 $K612") >"$T/kernels" 2>"$T/kernels.err" || true
if ! grep -q '^kernels ' "$T/kernels"; then
	note "real 6.1 and 6.12 not compared: $(sed -n 's/^1..0 # SKIP //p' "$T/kernels")"
	done_testing
	exit
fi
export VMREC_KERNELS=${VMREC_KERNELS:-$B/kernels}
for rel in 6.1 6.12; do
	NSELF=0 NEV=0
	if ! build "$rel"; then
		skip "the $rel selftests cannot be had: $(tail -n 1 "$T/build-$rel.err")"
		continue
	fi
	traces= names=
	for n in $BUILT; do
		[ -f "$T/$rel-$n.lz4" ] || record "$rel" "$n" || { skip "$n ($rel) not recorded faithfully here"; continue; }
		traces="$traces $T/$rel-$n.lz4" names="$names $n"
	done
	[ -n "$traces" ] || continue
	# one boot for all of them
	# shellcheck disable=SC2086
	# mremap_test maps 2 GiB of shared memory at once: the guest needs
	# more than that (the default 1G makes it ENOMEM there)
	"$V" --vm "$rel" --vm-mem 4G --per-event --json "$T/real-$rel.json" -- $traces >"$T/boot.out" 2>&1
	r=$?
	ok $r "the real $rel guest replayed $(echo $names | wc -w) selftests"
	[ $r -eq 0 ] || sed 's/^/# /' "$T/boot.out" | tail -n 15
	i=0
	for n in $names; do
		out=$T/real-$rel-$i.json
		[ "$(echo $names | wc -w)" -eq 1 ] && out=$T/real-$rel.json
		sim "$rel" "$T/$rel-$n.lz4" "$T/s$rel-$n.json"
		compare "real $rel vs sim $rel: $n" "$out" "$T/s$rel-$n.json"
		i=$((i + 1))
	done
	echo "selftests: $NSELF of $rel's mm selftests, $NEV events, compared on real $rel (QEMU) with the simulator's $rel profile" >&2
done
done_testing

#!/bin/sh
# The vmreplay program of lkp/ end to end in the lkp-tests tree $LKP_SRC
# (CI: ../shared/lkp-tests), driven piece by piece with lkp-tests' own code
# and never `lkp run` (its monitors take minutes and its run-local ends
# helpers with killall): lkp/install.sh into a scratch copy of the tree
# (the tree itself is never written), the package built by lkp-tests'
# makepkg from pkg/PKGBUILD, the jobs expanded by split-job, each atomic job
# turned into job.sh by job2sh and run in LKP's environment (job.sh run_job:
# bin/run-test and the program's run), its stats extracted (job.sh
# extract_stats: run-stats, the parse, dump-stat) and united (unite-stats:
# stats.json and matrix.json), three runs on this kernel and three in the
# simulator's 6.1 profile compared by lkp-tests' compare (lib/compare.rb),
# whose vmreplay rows and %change are checked.  Offline; Debian's ruby
# packages (make deps-list-LKP) are installed as root unless
# VMREC_NO_INSTALL is set.
. "$(dirname "$0")/../lib.sh"
[ -n "${LKP_SRC:-}" ] ||
	skip_all "LKP_SRC is not set: export LKP_SRC=/path/to/lkp-tests (CI: ../shared/lkp-tests)"
need_built "$B/bin/vmreplay" "$B/bin/vmreport"
carries_sanitizer "$B/bin/vmreplay" &&
	skip_all "a sanitized build: the package builds vmrec again, without sanitizers"
[ -x "$LKP_SRC/sbin/split-job" ] && [ -f "$LKP_SRC/lib/compare.rb" ] ||
	fail_all "LKP_SRC=$LKP_SRC is not an lkp-tests tree (no sbin/split-job, lib/compare.rb)"
# make check runs this under make: a nested make must not take its jobserver
unset MAKEFLAGS MFLAGS MAKELEVEL
pkgs=$(make -s --no-print-directory -C "$S" deps-list-LKP) || fail_all "make deps-list-LKP failed"
# shellcheck disable=SC2086
sh "$S/mk/deps.sh" $pkgs >"$T/deps.log" 2>&1 ||
	skip_all "lkp-tests' packages: $(grep -v '^deps: without' "$T/deps.log" | tail -n 1)"
# (not Debian, VMREC_NO_INSTALL: deps.sh could not check)
ruby -e 'require "git"; require "gnuplot"; require "term/ansicolor"; require "tty-command"
	require "colorize"; require "active_support"' >/dev/null 2>&1 ||
	skip_all "lkp-tests needs ruby with the gems git, gnuplot, term-ansicolor, tty-command, colorize, activesupport"

# ---- a scratch copy of lkp-tests, with the program installed ----------------
touch "$T/before"
sleep 1	# a change to LKP_SRC from now on has a later mtime
# the tree itself, where LKP_SRC is a link to it: cp -R would copy the
# link, the install below would write through it, and find would not
# look behind it
O=$(cd "$LKP_SRC" && pwd -P) L=$T/lkp-tests
cp -R "$O" "$L" && chmod -R u+w "$L" || fail_all "cannot copy $O to $T"
export LKP_SRC=$L
orig=$(cd "$T" && pwd)/orig-list
cp "$L/etc/linux-perf-test-cases" "$orig"
sh "$S/lkp/install.sh" "$L" >"$T/install.log" 2>&1
ok $? "lkp/install.sh puts the program into the copy"
is "$(diff "$orig" "$L/etc/linux-perf-test-cases" | grep '^[<>]')" "> vmreplay" \
   "etc/linux-perf-test-cases: the one line added"
sh "$S/lkp/install.sh" "$L" >/dev/null 2>&1
is "$(grep -cx vmreplay "$L/etc/linux-perf-test-cases")" 1 "installed twice: still one line"
is "$(sort "$L/programs/vmreplay/pkg/depends-dev" | grep -v '^#' | tr '\n' ' ')" \
   "$(make -s --no-print-directory -C "$S" deps-list-BUILD | tr ' ' '\n' | sort | tr '\n' ' ')" \
   "pkg/depends-dev: the packages vmrec's build needs (mk/config.mk DEPS_BUILD)"
# what `lkp install` would have written: the host and the event helper
box=vmrec-lkp-test
printf 'nr_cpu: %s\nmemory: 4G\nlocal_run: 1\n' "$(nproc)" >"$L/hosts/$box"
make -s -C "$L/bin/event" wakeup >"$T/wakeup.log" 2>&1 || fail_all "lkp-tests' bin/event/wakeup does not build: $(tail -n 1 "$T/wakeup.log")"

# ---- the package: lkp-tests' makepkg on pkg/PKGBUILD, this source tree ------
P=$L/programs/vmreplay/pkg
mkdir -p "$P/src" && ln -s "$S" "$P/src/vmrec"
# --noextract: the source is this tree as it is (the PKGBUILD builds out of
# it); --nodeps: mk/deps.sh installed them; --noarchive: the files are
# taken from pkg/ as `lkp install` copies them
(cd "$P" && VMREC_GIT=file://$S PACMAN=$L/sbin/pacman-LKP "$L/sbin/makepkg" \
	--config "$L/etc/makepkg.conf" --skippgpcheck --nodeps --noextract --noarchive) >"$T/makepkg.log" 2>&1
rc=$?
ok $rc "makepkg builds and packs vmrec from pkg/PKGBUILD"
[ $rc = 0 ] || tail -n 5 "$T/makepkg.log" | sed 's/^/# /'
root=$T/root
mkdir -p "$root" && cp -R "$P/pkg/vmreplay/." "$root/"
export BENCHMARK_ROOT=$root/lkp/benchmarks
V=$BENCHMARK_ROOT/vmreplay
[ -x "$V/bin/vmreplay" ] && [ -x "$V/bin/vmreport" ] && [ -x "$V/bin/vmreplay-static" ]
ok $? "the package holds the tools under lkp/benchmarks/vmreplay/bin"
is "$(ls "$V/traces/synth" | tr '\n' ' ')" \
   "$(for w in $("$B/bin/vmtrace" synth --list | awk 'NR > 1 { print $1 }'); do echo "$w.lz4"; done | sort | tr '\n' ' ')" \
   "and a trace of every synthesised workload"
is "$(ls "$V/traces/samples" | tr '\n' ' ')" "$(cd "$S/traces/samples" && ls ./*.lz4 | sed 's|^\./||' | tr '\n' ' ')" \
   "and the recorded samples"

# ---- the jobs, expanded by split-job ----------------------------------------
J=$L/programs/vmreplay/jobs
mkdir -p "$T/split" "$T/jobs"
for j in "$J"/*.yaml; do
	"$L/sbin/split-job" -t "$box" -o "$T/split" "$j" >>"$T/split.log" 2>&1 || echo "$j" >>"$T/split.bad"
done
is "$(cat "$T/split.bad" 2>/dev/null)" "" "split-job takes every job, with lkp-tests' defaults"
is "$(cd "$T/split" && ls | sed 's/\.yaml$//' | tr '\n' ' ')" \
   "vmreplay-kernel-kernel-samples vmreplay-kernel-kernel-synth vmreplay-pthread-kernel-synth_pthread vmreplay-pthread-sim-6.1-synth_pthread vmreplay-pthread-sim-6.8-synth_pthread vmreplay-sim-kernel-samples vmreplay-sim-kernel-synth vmreplay-sim-sim-6.1-samples vmreplay-sim-sim-6.1-synth vmreplay-sim-sim-6.12-samples vmreplay-sim-sim-6.12-synth vmreplay-sim-sim-6.8-samples vmreplay-sim-sim-6.8-synth vmreplay-vm-vm-6.1-samples vmreplay-vm-vm-6.12-samples " \
   "one atomic job per trace and target"
# the runs below without the defaults' monitors: the program alone
for j in vmreplay-pthread vmreplay-sim; do
	"$L/sbin/split-job" --no-defaults -t "$box" -o "$T/jobs" "$J/$j.yaml" >>"$T/split.log" 2>&1
done

# lkp JOB N: run N of atomic job JOB as lkp-tests runs it, into
# $T/result/JOB/N; its stats in vmreplay.json, united into ../matrix.json
lkp() {
	rt=$T/result/$1/$2 tmp=$T/tmp/$1-$2
	mkdir -p "$rt" "$tmp"
	cp "$T/jobs/$1.yaml" "$rt/job.yaml"
	"$L/sbin/job2sh" -o "$rt/job.sh" "$rt/job.yaml" >"$rt/lkp.log" 2>&1 &&
	for step in run_job extract_stats; do
		env PATH="$L/bin:$PATH" RESULT_ROOT="$rt" TMP_RESULT_ROOT="$rt" TMP="$tmp" \
			sh "$rt/job.sh" $step >>"$rt/lkp.log" 2>&1 || return 1
	done &&
	"$L/sbin/unite-stats" "$rt" >>"$rt/lkp.log" 2>&1 &&
	[ -s "$rt/vmreplay.json" ]
}
# json FILE EXPR: a value of a JSON file
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(*eval(sys.argv[2]))' "$@" 2>&1; }

K=vmreplay-pthread-kernel-synth_pthread S61=vmreplay-pthread-sim-6.1-synth_pthread
for n in 0 1 2; do
	for j in $K $S61; do
		lkp $j $n
		rc=$?
		ok $rc "$j, run $n: run, stats extracted and united"
		[ $rc = 0 ] || grep -v 'WARN -- skip' "$T/result/$j/$n/lkp.log" | tail -n 8 | sed 's/^/# /' 
	done
done
rt=$T/result/$K/0
is "$(json "$rt/vmreplay.json" 'd["vmreplay.merge.expand_next"], d["vmreplay.merge.split"], len(d["vmreplay.mmap.ops_per_sec"])')" \
   "[150] [160] 1" "kernel: stats named as vmreplay's metrics, one record per run"
[ -s "$rt/vmreplay-results/pthread.json" ] && [ ! -e "$rt/vmreplay-results/vmreplay.json" ]
ok $? "the results JSON kept in vmreplay-results/, not under LKP's own vmreplay.json"
"$B/bin/vmreport" "$rt/vmreplay-results/pthread.json" "$T/result/$S61/0/vmreplay-results/pthread.json" >/dev/null 2>&1
ok $? "vmreport compares the results of two LKP runs"
grep -q "/bin/vmreplay -q --target sim --kernel 6.1 --json $T/result/$S61/0/vmreplay-results/pthread.json " \
	"$T/result/$S61/0/reproduce.sh"
ok $? "reproduce.sh (log_cmd) has the vmreplay command"
is "$(json "$T/result/$S61/0/vmreplay.json" '"vmreplay.mmap.ops_per_sec" in d, d["vmreplay.merge.expand_next"]')" \
   "False [160]" "sim-6.1: its merge outcomes, no timings (the model's time is no kernel's)"
is "$(json "$T/result/$K/matrix.json" '[len(d["vmreplay.merge.split"])]')" 3 "matrix.json: one sample per run"

# ---- lkp-tests' compare ------------------------------------------------------
ruby "$S/tests/lkp/compare.rb" target "$T/result/$K" "$T/result/$S61" >"$T/compare" 2>"$T/compare.err"
ok $? "lkp-tests' compare runs"
sed -n '/%stddev/,$p' "$T/compare" | head -n 4 | sed 's/^/# /'
row() { grep -E "^ +$1 +$2 +$3 +vmreplay\.$4\$" "$T/compare" >/dev/null; ok $? "compare: vmreplay.$4 $1 -> $3 ($2)"; }
row 150.00 '\+6\.7%' 160.00 merge.expand_next
row 160.00 '-6\.2%' 150.00 merge.split
row 56.00 '-1\.8%' 55.00 vma_count.peak
row 160.00 '\+0\.0%' 160.00 merge.remove
# lkp-tests prints a stddev of 100% or more as "±123%", with no space
grep -Eq '^ +[0-9.]+( ± *[0-9]+%)? +-100\.0% +0\.00 +vmreplay\.mmap\.ops_per_sec$' "$T/compare" ||
	{ grep 'vmreplay\.mmap\.ops_per_sec' "$T/compare" | sed 's/^/# got: /'; false; }
ok $? "compare: a kernel timing against the simulator's none reads -100% (lkp/README.md says why)"
grep -q '^target: *$' "$T/compare" && grep -Eq '^ +kernel +sim-6\.1 *$' "$T/compare"
ok $? "compare: the two targets are the columns"

# ---- a directory of traces ---------------------------------------------------
D=vmreplay-sim-sim-6.1-samples
lkp $D 0
ok $? "$D: every sample trace in one run"
n=$(ls "$S/traces/samples/"*.lz4 | wc -l)
is "$(ls "$T/result/$D/0/vmreplay-results" | wc -l)" "$n" "a results file per trace"
is "$(json "$T/result/$D/0/vmreplay.json" 'sorted({k.split(".")[1] for k in d}) == sorted(sys.argv[3:]) and d["vmreplay.cc-compile.merge.new"][0] > 0,' \
	$(cd "$S/traces/samples" && ls ./*.lz4 | sed 's|^\./||; s|\.lz4$||'))" True \
   "each trace's stats under its name: vmreplay.cc-compile.merge.new"

# ---- a trace of one's own, cut short: the run marked incomplete -----------
mkdir -p "$T/mine"
head -c 6000 "$S/traces/samples/cc-compile.lz4" >"$T/mine/cut.lz4"
C=vmreplay-pthread-sim-6.1-synth_pthread
cp "$T/jobs/$C.yaml" "$T/jobs/mine.yaml"
sed -i "s|^  trace: synth/pthread\$|  trace: $T/mine|" "$T/jobs/mine.yaml"
lkp mine 0
ok $? "a directory given by path, its trace cut short: stats of the part replayed"
grep -q '^is_incomplete_run: 1$' "$T/result/mine/0/last_state" &&
	grep -q '"vmreplay.cut.merge.new"' "$T/result/mine/0/stats.json"
ok $? "the run marked is_incomplete_run in last_state, as lkp-tests marks its own"
grep -q '^# incomplete: .*truncated' "$T/result/mine/0/vmreplay"
ok $? "the stats' comment says why"

# ---- a kernel under QEMU (when qemu and Debian's 6.1 are here) -----------
# vmreplay-vm.yaml's atomic job on one small trace instead of all samples
export VMREC_KERNELS=${VMREC_KERNELS:-$B/kernels}
if ! command -v qemu-system-x86_64 >/dev/null 2>&1; then
	skip "target vm-6.1: qemu-system-x86 is not installed (tests/vm/ install it)"
elif ! ls "$VMREC_KERNELS"/6.1.*/vmlinuz >/dev/null 2>&1; then
	skip "target vm-6.1: no 6.1 kernel in $VMREC_KERNELS (make kernels)"
else
	"$L/sbin/split-job" --no-defaults -t "$box" -o "$T/jobs" "$J/vmreplay-vm.yaml" >>"$T/split.log" 2>&1
	Q=vmreplay-vm-vm-6.1-samples
	sed -i 's|^  trace: samples$|  trace: synth/brk1|' "$T/jobs/$Q.yaml"
	lkp $Q 0
	rc=$?
	ok $rc "$Q (trace synth/brk1): run in the 6.1 guest, stats extracted"
	[ $rc = 0 ] || grep -v 'WARN -- skip' "$T/result/$Q/0/lkp.log" | tail -n 8 | sed 's/^/# /'
	is "$(json "$T/result/$Q/0/vmreplay.json" '"vmreplay.brk.ops_per_sec" in d, d["vmreplay.brk.calls"]')" \
	   "False [4000]" "vm-6.1: its counts, not an emulated CPU's timings"
	grep -q '^# timings left out: an emulated guest' "$T/result/$Q/0/vmreplay"
	ok $? "vm-6.1: the log says the timings were left out"
fi

find "$O" -newer "$T/before" >"$T/touched" 2>&1
is "$(cat "$T/touched")" "" "the lkp-tests tree itself is untouched"
done_testing

#!/bin/sh
# vmtrace synth: every workload writes a trace that check accepts, with the
# calls the benchmark makes, the kernel's answers and a recorder-like
# process/map/checkpoint skeleton.
. "$(dirname "$0")/../lib.sh"
V=$B/bin/vmtrace

# counts JSON : "call=count ... procs=N res=N ck=reason:N,..." from stats --json
counts() {
	calls=$(sed -n 's/^    "\([a-z0-9_]*\)": {"count": \([0-9]*\),.*/\1=\2/p' "$1" | sort | tr '\n' ' ')
	procs=$(sed -n 's/^  "processes": \([0-9]*\),$/\1/p' "$1")
	res=$(sed -n 's/^  "residency_records": \([0-9]*\),$/\1/p' "$1")
	ck=$(sed -n 's/^  "checkpoints": {\(.*\)},$/\1/p' "$1" | tr -d '" ' | tr ',' '\n' |
		grep -v ':0$' | tr '\n' ',' | sed 's/,$//')
	echo "${calls}procs=$procs res=$res ck=$ck"
}

synth() {  # synth FILE NAME OPTIONS...
	f=$1; shift
	"$V" synth "$@" -o "$T/$f" && "$V" check "$T/$f" >/dev/null &&
		"$V" stats --json "$T/$f" >"$T/$f.json"
}

synth brk_test brk_test --iterations 3
ok $? "brk_test: check accepts it"
is "$(counts "$T/brk_test.json")" "brk=53 exit_group=1 procs=1 res=0 ck=start:1,exit:1" \
	"brk_test: sbrk(1M), 3 x (sbrk(-64K) + 16 sbrk(4K)), brk(old)"
"$V" dump "$T/brk_test" | head -3 >"$T/got"
cat >"$T/want" <<'W'
4242  brk(0x55555567a000)               = 0x55555567a000
4242  brk(0x55555566a000)               = 0x55555566a000
4242  brk(0x55555566b000)               = 0x55555566b000
W
is_file "$T/got" "$T/want" "brk_test: the break moves 1 MiB above the heap, then by -64K and +4K"
"$V" dump "$T/brk_test" | tail -2 >"$T/got"
printf '4242  brk(0x55555557a000)               = 0x55555557a000\n4242  exit_group(0)                     = ?\n' >"$T/want"
is_file "$T/got" "$T/want" "brk_test: ends at the old break"

synth page_test page_test --iterations 3
ok $? "page_test: check accepts it"
is "$(counts "$T/page_test.json")" "brk=53 exit_group=1 procs=1 res=2 ck=start:1,exit:1" \
	"page_test: a residency record before every shrink after the first"

synth brk1 brk1 --tasks 2 --iterations 3
is "$(counts "$T/brk1.json")" "brk=12 clone=2 exit_group=3 procs=3 res=0 ck=start:1,exit:3,fork:2" \
	"brk1 (process mode): 2 forked children, 2 brk per loop"
"$V" dump "$T/brk1" | sed -n '3,4p' >"$T/got"
printf '4243  brk(0x55555557b000)               = 0x55555557b000\n4244  brk(0x55555557b000)               = 0x55555557b000\n' >"$T/want"
is_file "$T/got" "$T/want" "brk1: each child grows its own heap by one page"

synth brk2 brk2 --tasks 2 --iterations 3 --mode thread
is "$(counts "$T/brk2.json")" "brk=14 clone3=2 exit=2 exit_group=1 madvise=2 mmap=2 mprotect=2 munmap=2 procs=1 res=2 ck=start:1,exit:1" \
	"brk2 (thread mode): sbrk(page) per thread, then the loop"

synth mmap1 mmap1 --tasks 2 --iterations 3 --mode thread
is "$(counts "$T/mmap1.json")" "clone3=2 exit=2 exit_group=1 madvise=2 mmap=8 mprotect=2 munmap=8 procs=1 res=2 ck=start:1,exit:1" \
	"mmap1 (thread mode): thread stacks plus mmap/munmap of 128 MiB"
"$V" dump "$T/mmap1" | sed -n '7,8p' >"$T/got"
cat >"$T/want" <<'W'
4243  mmap(NULL, 134217728, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7fffeec00000
4244  mmap(NULL, 134217728, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7fffe6c00000
W
is_file "$T/got" "$T/want" "mmap1: threads' mappings placed top-down, PMD-aligned, below the stacks"

synth mmap2 mmap2 --tasks 2 --iterations 3
is "$(counts "$T/mmap2.json")" "clone=2 exit_group=3 mmap=6 munmap=6 procs=3 res=0 ck=start:1,exit:3,fork:2" \
	"mmap2 (process mode): file mappings in 2 children"
"$V" dump "$T/mmap2" | sed -n 3p >"$T/got"
echo '4243  mmap(NULL, 134217728, PROT_READ|PROT_WRITE, MAP_PRIVATE, 3, 0) = 0x7fffefdcc000' >"$T/want"
is_file "$T/got" "$T/want" "mmap2: private file mapping, not PMD-aligned"

synth pthread pthread --iterations 2 --tasks 3
is "$(counts "$T/pthread.json")" "clone3=6 exit=6 exit_group=1 madvise=6 mmap=6 mprotect=6 munmap=6 procs=1 res=6 ck=start:1,exit:1" \
	"pthread: 2 rounds of 3 threads"
"$V" dump "$T/pthread" | head -2 >"$T/got"
cat >"$T/want" <<'W'
4242  mmap(NULL, 8392704, PROT_NONE, MAP_PRIVATE|MAP_ANONYMOUS|MAP_STACK, -1, 0) = 0x7ffff75cb000
4242  mprotect(0x7ffff75cc000, 8388608, PROT_READ|PROT_WRITE) = 0
W
is_file "$T/got" "$T/want" "pthread: glibc's stack mapping and guard page"
"$V" dump "$T/pthread" | grep -c 'madvise(0x7ffff75cb000, 8368128, MADV_DONTNEED)' >"$T/got"
echo 2 >"$T/want"
is_file "$T/got" "$T/want" "pthread: a joined stack's address is reused in the next round"

synth fork fork --iterations 3
is "$(counts "$T/fork.json")" "clone=3 exit_group=4 mmap=1 munmap=1 procs=4 res=1 ck=start:1,exit:4,fork:3" \
	"fork: 1 GiB populated, 3 children"
"$V" stats "$T/fork" | grep -q '(VMAs 24..25)'
ok $? "fork: children see the 1 GiB mapping as a 25th VMA"
"$V" dump "$T/fork" | head -1 >"$T/got"
echo '4242  mmap(NULL, 1073741824, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7fffb7c00000' >"$T/want"
is_file "$T/got" "$T/want" "fork: the GiB is PMD-aligned"

"$V" synth brk_test --iterations 3 --seed 99 -o "$T/seeded" && "$V" check "$T/seeded" >/dev/null
ok $? "another seed: another layout that still checks"
[ "$("$V" dump "$T/seeded" | head -1)" != "$("$V" dump "$T/brk_test" | head -1)" ]
ok $? "another seed moves the heap"

"$V" synth nosuch -o "$T/x" 2>/dev/null
is "$?" 2 "an unknown workload is a usage error"
"$V" synth brk1 --mode sideways -o "$T/x" 2>/dev/null
is "$?" 2 "a bad --mode is a usage error"
"$V" synth brk1 2>/dev/null
is "$?" 2 "no -o is a usage error"
"$V" synth brk1 -o "$T/no/such/dir/t" 2>"$T/err"
is "$?" 1 "an unwritable output fails"
[ "$(wc -l <"$T/err")" -ge 1 ] && grep -q "$T/no/such/dir/t" "$T/err"
ok $? "naming the file"
done_testing

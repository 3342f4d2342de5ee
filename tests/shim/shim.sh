# shim.sh - helpers for the recorder tests; source after ../lib.sh.
#   record TRACE PROG ARGS...      run PROG under libvmrec.so
#   same_as_strace NAME PROG ARGS  the trace's calls equal strace's (calls.py)
LIB=$B/lib/libvmrec.so
P=$B/tests/shim/progs
TC=$B/tests/shim/tracecalls
need_built "$LIB" "$TC"

# The calls strace traces: the table's (vmtrace syscalls) that are
# recorded on every call of their number (not prctl's and ioctl's rows,
# which take some calls of it) and that this strace knows by name (6.1
# knows neither mseal nor map_shadow_stack).  Made on first use.
STRACE_CALLS=
strace_calls() {
	[ -n "$STRACE_CALLS" ] && return 0
	for _c in $("$B/bin/vmtrace" syscalls | awk '!/^#/ && $10 == "-" { print $2 }'); do
		strace -qq -o /dev/null -e trace="$_c" true 2>/dev/null &&
			STRACE_CALLS=${STRACE_CALLS:+$STRACE_CALLS,}$_c
	done
	[ -n "$STRACE_CALLS" ]
}

# Under make asan the test programs carry ASan, the recorder does not; the
# leak checker's exit-time clone(CLONE_VM) would differ between runs.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0"

record() {
	_out=$1; shift
	LD_PRELOAD=$LIB VMREC_OUT=$_out "$@"
}

have_strace() {
	command -v strace >/dev/null 2>&1 && strace -qq -o /dev/null true 2>/dev/null
}

same_as_strace() {
	_name=$1; shift
	strace_calls || { ok 1 "$_name: vmtrace syscalls gives the calls to trace"; return; }
	strace -f -qq -e raw=all -e signal=none -e trace=$STRACE_CALLS \
		-o "$T/$_name.st" "$@" >/dev/null 2>&1
	record "$T/$_name.lz4" "$@" >/dev/null 2>"$T/$_name.err"
	"$TC" "$T/$_name.lz4" >"$T/$_name.tc"
	python3 "$S/tests/shim/calls.py" strace "$T/$_name.st" >"$T/$_name.want"
	python3 "$S/tests/shim/calls.py" trace "$T/$_name.tc" >"$T/$_name.got"
	is_file "$T/$_name.got" "$T/$_name.want" "$_name: the trace has the calls strace -f saw"
}

# like GOT SUBSTRING NAME
like() {
	case $1 in
	*"$2"*) ok 0 "$3" ;;
	*) ok 1 "$3"; printf '#   got:  %s\n#   want: *%s*\n' "$1" "$2" ;;
	esac
}

# The VMA calls of a strace -f -o FILE or a `vmtrace dump`, names only,
# one line per process (in its order), the lines sorted: what
# `strace -f -e trace=%memory,prctl` shows, compared call for call.
# With LOADER_TLS=skip, ld.so's small anonymous allocations before the
# process's first munmap are left out: the recorder's static TLS changes
# how ld.so allocates the main thread's (one 12 KiB mmap becomes two of
# 8 KiB in a program with several libraries).  A successful execve
# starts a new image (strace must trace execve too).  prctl counts only for the
# options that change VMAs.
calls_by_process() {
	awk -v skip="${LOADER_TLS:-}" '$2 !~ /^</ { n = $2; sub(/\(.*/, "", n)
		if (n == "munmap") unmapped[$1] = 1
		if (n ~ /^execve/ && $0 ~ /= 0$/) unmapped[$1] = 0   # a new image
		if (skip && !unmapped[$1] && $0 ~ /mmap\(NULL, (4096|8192|12288), PROT_READ\|PROT_WRITE, MAP_PRIVATE\|MAP_ANONYMOUS, -1, 0\)/) next
		if (n == "prctl" && $0 !~ /PR_SET_(VMA|THP_DISABLE|MEMORY_MERGE|MDWE)/) next
		if (n !~ /^(mmap|munmap|mprotect|pkey_mprotect|brk|madvise|mremap|mlock|mlock2|munlock|mlockall|munlockall|mseal|shmat|shmdt|prctl|mbind|set_mempolicy_home_node|remap_file_pages|process_madvise)$/) next
		if (!($1 in seen)) { seen[$1] = ++np; pid[np] = $1 }
		s[$1] = s[$1] " " n }
		END { for (i = 1; i <= np; i++) print s[pid[i]] }' "$1" | sort
}

# shim.sh - helpers for the recorder tests; source after ../lib.sh.
#   record TRACE PROG ARGS...      run PROG under libvmrec.so
#   same_as_strace NAME PROG ARGS  the trace's calls equal strace's (calls.py)
LIB=$B/lib/libvmrec.so
P=$B/tests/shim/progs
TC=$B/tests/shim/tracecalls
need_built "$LIB" "$TC"

STRACE_CALLS=brk,mmap,munmap,mremap,mprotect,pkey_mprotect,madvise,mlock,mlock2,munlock,mlockall,munlockall,shmat,shmdt,clone,clone3,fork,vfork,execve,execveat,exit,exit_group

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

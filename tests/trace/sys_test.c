/* The system call table: x86-64 numbers and strace's names both ways,
 * the rows that share a number told apart by their match, and what the
 * recorder reads and asks for each. */
#include "tests/tap.h"
#include "vmt.h"

static const struct { int sys; const char *name; long nr; int nargs; int shared; } want[] = {
	{ VMT_SYS_BRK, "brk", 12, 1, 0 },
	{ VMT_SYS_MMAP, "mmap", 9, 6, 0 },
	{ VMT_SYS_MUNMAP, "munmap", 11, 2, 0 },
	{ VMT_SYS_MREMAP, "mremap", 25, 5, 0 },
	{ VMT_SYS_MPROTECT, "mprotect", 10, 3, 0 },
	{ VMT_SYS_PKEY_MPROTECT, "pkey_mprotect", 329, 4, 0 },
	{ VMT_SYS_MADVISE, "madvise", 28, 3, 0 },
	{ VMT_SYS_MLOCK, "mlock", 149, 2, 0 },
	{ VMT_SYS_MLOCK2, "mlock2", 325, 3, 0 },
	{ VMT_SYS_MUNLOCK, "munlock", 150, 2, 0 },
	{ VMT_SYS_MLOCKALL, "mlockall", 151, 1, 0 },
	{ VMT_SYS_MUNLOCKALL, "munlockall", 152, 0, 0 },
	{ VMT_SYS_MSEAL, "mseal", 462, 3, 0 },
	{ VMT_SYS_SHMAT, "shmat", 30, 3, 0 },
	{ VMT_SYS_SHMDT, "shmdt", 67, 1, 0 },
	{ VMT_SYS_FORK, "fork", 57, 0, 0 },
	{ VMT_SYS_VFORK, "vfork", 58, 0, 0 },
	{ VMT_SYS_CLONE, "clone", 56, 5, 0 },
	{ VMT_SYS_CLONE3, "clone3", 435, 2, 0 },
	{ VMT_SYS_EXECVE, "execve", 59, 3, 0 },
	{ VMT_SYS_EXECVEAT, "execveat", 322, 5, 0 },
	{ VMT_SYS_EXIT, "exit", 60, 1, 0 },
	{ VMT_SYS_EXIT_GROUP, "exit_group", 231, 1, 0 },
	{ VMT_SYS_MBIND, "mbind", 237, 6, 0 },
	{ VMT_SYS_SET_MEMPOLICY_HOME_NODE, "set_mempolicy_home_node", 450, 4, 0 },
	{ VMT_SYS_PRCTL_SET_VMA, "prctl", 157, 5, 0 },
	{ VMT_SYS_PRCTL_SET_THP_DISABLE, "prctl", 157, 5, 1 },
	{ VMT_SYS_PRCTL_SET_MEMORY_MERGE, "prctl", 157, 5, 1 },
	{ VMT_SYS_PRCTL_SET_MDWE, "prctl", 157, 5, 1 },
	{ VMT_SYS_PROCESS_MADVISE, "process_madvise", 440, 5, 0 },
	{ VMT_SYS_UFFDIO_REGISTER, "ioctl", 16, 3, 0 },
	{ VMT_SYS_UFFDIO_UNREGISTER, "ioctl", 16, 3, 1 },
	{ VMT_SYS_REMAP_FILE_PAGES, "remap_file_pages", 216, 5, 0 },
	{ VMT_SYS_MAP_SHADOW_STACK, "map_shadow_stack", 453, 3, 0 },
};

/* A call's registers with one argument set. */
static int of_call(long nr, int arg, uint64_t value)
{
	uint64_t a[6] = { 0 };
	a[arg] = value;
	return vmt_sys_of_call(nr, a);
}

int main(void)
{
	is_int(sizeof(want) / sizeof(want[0]), VMT_SYS_COUNT - 1, "every system call is listed");
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int s = want[i].sys;
		is_str(vmt_sys_name(s), want[i].name, "name of %d", s);
		is_int(vmt_sys_nr(s), want[i].nr, "%s is number %ld", want[i].name, want[i].nr);
		if (!want[i].shared) {
			is_int(vmt_sys_from_nr(want[i].nr), s, "number %ld is %s", want[i].nr, want[i].name);
			is_int(vmt_sys_from_name(want[i].name), s, "\"%s\" is found by name", want[i].name);
		}
		int arg;
		uint32_t value;
		if (vmt_sys_match(s, &arg, &value))
			is_int(of_call(want[i].nr, arg, value), s, "%s %d: its match (arg%d == %#x) selects it",
			       want[i].name, s, arg, value);
		else
			is_int(of_call(want[i].nr, 0, 0), s, "%s: every call of %ld is it", want[i].name, want[i].nr);
		is_int(vmt_sys_nargs(s), want[i].nargs, "%s takes %d arguments", want[i].name, want[i].nargs);
	}
	ok(vmt_sys_name(VMT_SYS_NONE) == NULL, "no name for VMT_SYS_NONE");
	ok(vmt_sys_name(VMT_SYS_COUNT) == NULL, "no name past the table");
	ok(vmt_sys_name(-1) == NULL, "no name for -1");
	is_int(vmt_sys_from_name("read"), VMT_SYS_NONE, "read is not recorded");
	is_int(vmt_sys_from_name(NULL), VMT_SYS_NONE, "NULL name");
	is_int(vmt_sys_from_nr(0), VMT_SYS_NONE, "syscall 0 (read) is not recorded");
	is_int(vmt_sys_nr(VMT_SYS_COUNT), -1, "no number past the table");
	/* sub-commands: only the ones the table names are recorded */
	is_int(of_call(157, 0, 41), VMT_SYS_PRCTL_SET_THP_DISABLE, "prctl(PR_SET_THP_DISABLE)");
	is_int(of_call(157, 0, 0x53564d41), VMT_SYS_PRCTL_SET_VMA, "prctl(PR_SET_VMA)");
	is_int(of_call(157, 0, 67), VMT_SYS_PRCTL_SET_MEMORY_MERGE, "prctl(PR_SET_MEMORY_MERGE)");
	is_int(of_call(157, 0, 65), VMT_SYS_PRCTL_SET_MDWE, "prctl(PR_SET_MDWE)");
	is_int(of_call(157, 0, 15), VMT_SYS_NONE, "prctl(PR_SET_NAME) is not recorded");
	is_int(of_call(157, 0, 42), VMT_SYS_NONE, "prctl(PR_GET_THP_DISABLE) is not recorded");
	is_int(of_call(16, 1, 0xc020aa00), VMT_SYS_UFFDIO_REGISTER, "ioctl(UFFDIO_REGISTER)");
	is_int(of_call(16, 1, 0xffffffffc020aa00ull), VMT_SYS_UFFDIO_REGISTER,
	       "ioctl(UFFDIO_REGISTER) sign-extended: the kernel reads 32 bits");
	is_int(of_call(16, 1, 0x8010aa01), VMT_SYS_UFFDIO_UNREGISTER, "ioctl(UFFDIO_UNREGISTER)");
	is_int(of_call(16, 1, 0x5401), VMT_SYS_NONE, "ioctl(TCGETS) is not recorded");
	is_int(of_call(16, 0, 0xc020aa00), VMT_SYS_NONE, "the match is on the command, not the fd");
	/* what the recorder asks and reads */
	is_int(vmt_sys_residency(VMT_SYS_MUNMAP), VMT_RESID_RANGE, "munmap asks its range's residency");
	is_int(vmt_sys_residency(VMT_SYS_BRK), VMT_RESID_BRK, "brk asks the heap's");
	is_int(vmt_sys_residency(VMT_SYS_MMAP), VMT_RESID_NONE, "mmap asks none");
	is_int(vmt_sys_residency(VMT_SYS_PROCESS_MADVISE), VMT_RESID_RANGES, "process_madvise asks its iovec's");
	is_int(vmt_sys_ranges(VMT_SYS_PROCESS_MADVISE), VMT_RANGES_IOVEC, "process_madvise reads its iovec");
	is_int(vmt_sys_ranges(VMT_SYS_UFFDIO_REGISTER), VMT_RANGES_UFFDIO_REGISTER, "UFFDIO_REGISTER its struct");
	is_int(vmt_sys_ranges(VMT_SYS_UFFDIO_UNREGISTER), VMT_RANGES_UFFDIO_RANGE, "UFFDIO_UNREGISTER its range");
	is_int(vmt_sys_ranges(VMT_SYS_PRCTL_SET_VMA), VMT_RANGES_VMA_NAME, "PR_SET_VMA its name");
	is_int(vmt_sys_ranges(VMT_SYS_MADVISE), VMT_RANGES_NONE, "madvise reads nothing");
	is_int(vmt_sys_effect(VMT_SYS_MAP_SHADOW_STACK), VMT_FX_MAP, "map_shadow_stack maps");
	is_int(vmt_sys_effect(VMT_SYS_PRCTL_SET_MDWE), VMT_FX_PROCESS, "PR_SET_MDWE is process-wide");
	int a, l;
	vmt_sys_range_args(VMT_SYS_PRCTL_SET_VMA, &a, &l);
	ok(a == 2 && l == 3, "PR_SET_VMA's range is arguments 2 and 3");
	is_str(vmt_strerror(VMT_ETRUNCATED), "truncated trace", "vmt_strerror names codes");
	return done_testing();
}

/* The system call table: x86-64 numbers and strace's names both ways. */
#include "tests/tap.h"
#include "vmt.h"

static const struct { int sys; const char *name; long nr; int nargs; } want[] = {
	{ VMT_SYS_BRK, "brk", 12, 1 },
	{ VMT_SYS_MMAP, "mmap", 9, 6 },
	{ VMT_SYS_MUNMAP, "munmap", 11, 2 },
	{ VMT_SYS_MREMAP, "mremap", 25, 5 },
	{ VMT_SYS_MPROTECT, "mprotect", 10, 3 },
	{ VMT_SYS_PKEY_MPROTECT, "pkey_mprotect", 329, 4 },
	{ VMT_SYS_MADVISE, "madvise", 28, 3 },
	{ VMT_SYS_MLOCK, "mlock", 149, 2 },
	{ VMT_SYS_MLOCK2, "mlock2", 325, 3 },
	{ VMT_SYS_MUNLOCK, "munlock", 150, 2 },
	{ VMT_SYS_MLOCKALL, "mlockall", 151, 1 },
	{ VMT_SYS_MUNLOCKALL, "munlockall", 152, 0 },
	{ VMT_SYS_MSEAL, "mseal", 462, 3 },
	{ VMT_SYS_SHMAT, "shmat", 30, 3 },
	{ VMT_SYS_SHMDT, "shmdt", 67, 1 },
	{ VMT_SYS_FORK, "fork", 57, 0 },
	{ VMT_SYS_VFORK, "vfork", 58, 0 },
	{ VMT_SYS_CLONE, "clone", 56, 5 },
	{ VMT_SYS_CLONE3, "clone3", 435, 2 },
	{ VMT_SYS_EXECVE, "execve", 59, 3 },
	{ VMT_SYS_EXECVEAT, "execveat", 322, 5 },
	{ VMT_SYS_EXIT, "exit", 60, 1 },
	{ VMT_SYS_EXIT_GROUP, "exit_group", 231, 1 },
};

int main(void)
{
	is_int(sizeof(want) / sizeof(want[0]), VMT_SYS_COUNT - 1, "every system call is listed");
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		int s = want[i].sys;
		is_str(vmt_sys_name(s), want[i].name, "name of %d", s);
		is_int(vmt_sys_nr(s), want[i].nr, "%s is number %ld", want[i].name, want[i].nr);
		is_int(vmt_sys_from_nr(want[i].nr), s, "number %ld is %s", want[i].nr, want[i].name);
		is_int(vmt_sys_from_name(want[i].name), s, "\"%s\" is found by name", want[i].name);
		is_int(vmt_sys_nargs(s), want[i].nargs, "%s takes %d arguments", want[i].name, want[i].nargs);
	}
	ok(vmt_sys_name(VMT_SYS_NONE) == NULL, "no name for VMT_SYS_NONE");
	ok(vmt_sys_name(VMT_SYS_COUNT) == NULL, "no name past the table");
	ok(vmt_sys_name(-1) == NULL, "no name for -1");
	is_int(vmt_sys_from_name("read"), VMT_SYS_NONE, "read is not recorded");
	is_int(vmt_sys_from_name(NULL), VMT_SYS_NONE, "NULL name");
	is_int(vmt_sys_from_nr(0), VMT_SYS_NONE, "syscall 0 (read) is not recorded");
	is_int(vmt_sys_nr(VMT_SYS_COUNT), -1, "no number past the table");
	is_str(vmt_strerror(VMT_ETRUNCATED), "truncated trace", "vmt_strerror names codes");
	return done_testing();
}

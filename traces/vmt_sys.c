/* vmt_sys.c - the system calls vmrec records: stable trace numbering,
 * x86-64 numbers, names as strace prints them, argument counts. */
#include <string.h>
#include "vmt.h"

struct sys_info {
	const char *name;
	long nr;
	int nargs;
};

static const struct sys_info sys_table[VMT_SYS_COUNT] = {
	[VMT_SYS_NONE]          = { NULL, -1, 0 },
	[VMT_SYS_BRK]           = { "brk", 12, 1 },
	[VMT_SYS_MMAP]          = { "mmap", 9, 6 },
	[VMT_SYS_MUNMAP]        = { "munmap", 11, 2 },
	[VMT_SYS_MREMAP]        = { "mremap", 25, 5 },
	[VMT_SYS_MPROTECT]      = { "mprotect", 10, 3 },
	[VMT_SYS_PKEY_MPROTECT] = { "pkey_mprotect", 329, 4 },
	[VMT_SYS_MADVISE]       = { "madvise", 28, 3 },
	[VMT_SYS_MLOCK]         = { "mlock", 149, 2 },
	[VMT_SYS_MLOCK2]        = { "mlock2", 325, 3 },
	[VMT_SYS_MUNLOCK]       = { "munlock", 150, 2 },
	[VMT_SYS_MLOCKALL]      = { "mlockall", 151, 1 },
	[VMT_SYS_MUNLOCKALL]    = { "munlockall", 152, 0 },
	[VMT_SYS_MSEAL]         = { "mseal", 462, 3 },
	[VMT_SYS_SHMAT]         = { "shmat", 30, 3 },
	[VMT_SYS_SHMDT]         = { "shmdt", 67, 1 },
	[VMT_SYS_FORK]          = { "fork", 57, 0 },
	[VMT_SYS_VFORK]         = { "vfork", 58, 0 },
	[VMT_SYS_CLONE]         = { "clone", 56, 5 },
	[VMT_SYS_CLONE3]        = { "clone3", 435, 2 },
	[VMT_SYS_EXECVE]        = { "execve", 59, 3 },
	[VMT_SYS_EXECVEAT]      = { "execveat", 322, 5 },
	[VMT_SYS_EXIT]          = { "exit", 60, 1 },
	[VMT_SYS_EXIT_GROUP]    = { "exit_group", 231, 1 },
};

static int known(int sys)
{
	return sys > VMT_SYS_NONE && sys < VMT_SYS_COUNT;
}

const char *vmt_sys_name(int sys)
{
	return known(sys) ? sys_table[sys].name : NULL;
}

int vmt_sys_from_name(const char *name)
{
	for (int s = 1; name && s < VMT_SYS_COUNT; s++)
		if (strcmp(sys_table[s].name, name) == 0)
			return s;
	return VMT_SYS_NONE;
}

int vmt_sys_from_nr(long nr)
{
	for (int s = 1; s < VMT_SYS_COUNT; s++)
		if (sys_table[s].nr == nr)
			return s;
	return VMT_SYS_NONE;
}

long vmt_sys_nr(int sys)
{
	return known(sys) ? sys_table[sys].nr : -1;
}

int vmt_sys_nargs(int sys)
{
	return known(sys) ? sys_table[sys].nargs : 0;
}

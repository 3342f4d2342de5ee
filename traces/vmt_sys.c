/* vmt_sys.c - lookups in the table of system calls (vmt_syscalls.def):
 * trace numbering, x86-64 numbers, names as strace prints them, argument
 * counts. */
#include <string.h>
#include "vmt.h"

struct sys_info {
	const char *name;
	long nr;
	int nargs;
};

static const struct sys_info sys_table[VMT_SYS_COUNT] = {
	[VMT_SYS_NONE] = { NULL, -1, 0 },
#define SYSCALL(id, name, nr, nargs, ...) [VMT_SYS_##id] = { #name, nr, nargs },
#include "vmt_syscalls.def"
#undef SYSCALL
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

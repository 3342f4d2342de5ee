/* vmt_sys.c - lookups in the table of system calls (vmt_syscalls.def):
 * trace numbering, x86-64 numbers, names as strace prints them, argument
 * counts. */
#include <stdint.h>
#include <string.h>
#include "vmt.h"

struct sys_info {
	const char *name;
	long nr;
	int nargs;
	int effect;
	int8_t addr, len;
};

#define NONE (-1)
static const struct sys_info sys_table[VMT_SYS_COUNT] = {
	[VMT_SYS_NONE] = { NULL, -1, 0, VMT_FX_NONE, NONE, NONE },
#define SYSCALL(id, name, nr, nargs, predict, args, result, custom, effect, addr, len) \
	[VMT_SYS_##id] = { #name, nr, nargs, VMT_FX_##effect, addr, len },
#include "vmt_syscalls.def"
#undef SYSCALL
};
#undef NONE

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

int vmt_sys_effect(int sys)
{
	return known(sys) ? sys_table[sys].effect : VMT_FX_NONE;
}

void vmt_sys_range_args(int sys, int *addr, int *len)
{
	*addr = known(sys) ? sys_table[sys].addr : -1;
	*len = known(sys) ? sys_table[sys].len : -1;
}

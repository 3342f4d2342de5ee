/* vmt_sys.c - lookups in the table of system calls (vmt_syscalls.def):
 * trace numbering, x86-64 numbers, names as strace prints them, argument
 * counts, what each call does and what the recorder reads for it and
 * which file it names. */
#include <stdint.h>
#include <string.h>
#include "vmt.h"

struct sys_info {
	const char *name, *ident;
	long nr;
	int8_t nargs;
	int8_t effect;
	int8_t addr, len;
	int8_t match_arg;        /* -1: every call of nr */
	uint8_t residency, ranges, file;
	uint32_t match_value;
};

#define NONE (-1)
#define MATCH_ANY .match_arg = -1
#define MATCH_ARG0(v) .match_arg = 0, .match_value = (v)
#define MATCH_ARG1(v) .match_arg = 1, .match_value = (v)
static const struct sys_info sys_table[VMT_SYS_COUNT] = {
	[VMT_SYS_NONE] = { .nr = -1, .effect = VMT_FX_NONE, .addr = NONE, .len = NONE, .match_arg = -1 },
#define SYSCALL(id, name_, nr_, nargs_, predict, args, result, custom, effect_, addr_, len_, \
                match_, residency_, ranges_, file_) \
	[VMT_SYS_##id] = { .name = #name_, .ident = #id, .nr = nr_, .nargs = nargs_, .effect = VMT_FX_##effect_, \
	                   .addr = addr_, .len = len_, MATCH_##match_, \
	                   .residency = VMT_RESID_##residency_, .ranges = VMT_RANGES_##ranges_, \
	                   .file = VMT_FILE_##file_ },
#include "vmt_syscalls.def"
#undef SYSCALL
};
#undef MATCH_ANY
#undef MATCH_ARG0
#undef MATCH_ARG1
#undef NONE

static int known(int sys)
{
	return sys > VMT_SYS_NONE && sys < VMT_SYS_COUNT;
}

const char *vmt_sys_name(int sys)
{
	return known(sys) ? sys_table[sys].name : NULL;
}

/* The rows' ids in lower case ("mmap", "prctl_set_mdwe"), made once at
 * load: names repeat where rows share a number, ids never do. */
static char keys[VMT_SYS_COUNT][32];

__attribute__((constructor)) static void make_keys(void)
{
	for (int s = 1; s < VMT_SYS_COUNT; s++)
		for (size_t i = 0; i + 1 < sizeof keys[s] && sys_table[s].ident[i]; i++) {
			char c = sys_table[s].ident[i];
			keys[s][i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
		}
}

const char *vmt_sys_key(int sys)
{
	return known(sys) ? keys[sys] : NULL;
}

int vmt_sys_from_key(const char *key)
{
	for (int s = 1; key && s < VMT_SYS_COUNT; s++)
		if (strcmp(keys[s], key) == 0)
			return s;
	return VMT_SYS_NONE;
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

int vmt_sys_of_call(long nr, const uint64_t args[6])
{
	for (int s = 1; s < VMT_SYS_COUNT; s++) {
		const struct sys_info *i = &sys_table[s];
		if (i->nr == nr && (i->match_arg < 0 || (uint32_t)args[i->match_arg] == i->match_value))
			return s;
	}
	return VMT_SYS_NONE;
}

int vmt_sys_match(int sys, int *arg, uint32_t *value)
{
	if (!known(sys) || sys_table[sys].match_arg < 0)
		return 0;
	*arg = sys_table[sys].match_arg;
	*value = sys_table[sys].match_value;
	return 1;
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

int vmt_sys_residency(int sys)
{
	return known(sys) ? sys_table[sys].residency : VMT_RESID_NONE;
}

int vmt_sys_ranges(int sys)
{
	return known(sys) ? sys_table[sys].ranges : VMT_RANGES_NONE;
}

int vmt_sys_file(int sys)
{
	return known(sys) ? sys_table[sys].file : VMT_FILE_NONE;
}

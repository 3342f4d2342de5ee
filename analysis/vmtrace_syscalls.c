/* vmtrace syscalls: the table of system calls vmrec records
 * (traces/vmt_syscalls.def), one row per call, for people and for the
 * test scripts that would otherwise keep lists of their own. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "analysis/vmtrace.h"
#include "vmt.h"

static const struct row {
	int id;
	const char *name, *predict, *args, *result, *custom, *effect, *addr, *len, *residency, *ranges, *file;
	long nr;
	int nargs;
} rows[] = {
#define SYSCALL(id, name, nr, nargs, predict, args, result, custom, effect, addr, len, match, \
                residency, ranges, file) \
	{ VMT_SYS_##id, #name, #predict, #args, #result, #custom, #effect, #addr, #len, #residency, \
	  #ranges, #file, nr, nargs },
#include "vmt_syscalls.def"
#undef SYSCALL
};

/* "(SYSFMT_ADDR, SYSFMT_ULEN)" -> "addr,ulen"; "(0)" -> "-" */
static void put_kinds(const char *s)
{
	int any = 0;
	for (const char *p = s; *p; p++) {
		if (!strncmp(p, "SYSFMT_", 7)) {
			if (any)
				putchar(',');
			for (p += 7; isupper((unsigned char)*p) || *p == '_'; p++)
				putchar(tolower((unsigned char)*p));
			any = 1;
			p--;
		}
	}
	if (!any)
		putchar('-');
}

int vmtrace_syscalls_main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) {
		fprintf(stderr, "usage: vmtrace syscalls\n");
		return 2;
	}
	printf("# id name nr nargs predict result format effect range match residency ranges file args\n");
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const struct row *r = &rows[i];
		printf("%d %s %ld %d %s %s %s ", r->id, r->name, r->nr, r->nargs, r->predict,
		       r->result, strcmp(r->custom, "NONE") ? r->custom : "table");
		/* the range: its address and length arguments, "-" for none */
		printf("%s %s%s%s ", r->effect, strcmp(r->addr, "NONE") ? r->addr : "-",
		       strcmp(r->len, "NONE") ? "," : "", strcmp(r->len, "NONE") ? r->len : "");
		/* which calls of the number: "arg0=0x29", "-" for all */
		int arg;
		uint32_t value;
		if (vmt_sys_match(r->id, &arg, &value))
			printf("arg%d=%#x ", arg, value);
		else
			printf("- ");
		printf("%s %s %s ", r->residency, r->ranges, r->file);
		put_kinds(r->args);
		putchar('\n');
	}
	return 0;
}

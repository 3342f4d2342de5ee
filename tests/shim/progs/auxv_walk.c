/* Finds the auxiliary vector as Go's runtime does, past envp's NULL on
 * the initial stack, and prints what is stable from run to run: each
 * entry's type, the values that do not move (page size, clock ticks,
 * hardware capabilities, ids), then the environment's names as environ
 * and main's envp show them. */
#include <elf.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>

extern char **environ;

static void names(const char *what, char **env)
{
	printf("%s:", what);
	for (char **e = env; *e; e++)
		printf(" %.*s", (int)strcspn(*e, "="), *e);
	printf("\n");
}

int main(int argc, char **argv, char **envp)
{
	char **p = argv + argc + 1;
	while (*p)
		p++;
	int found_pagesz = 0;
	for (Elf64_auxv_t *a = (Elf64_auxv_t *)(p + 1); a->a_type != AT_NULL; a++) {
		switch (a->a_type) {
		case AT_PAGESZ: found_pagesz = 1; /* fall through */
		case AT_CLKTCK: case AT_HWCAP: case AT_HWCAP2: case AT_UID: case AT_EUID:
		case AT_GID: case AT_EGID: case AT_SECURE: case AT_FLAGS:
			printf("auxv %lu = %lu\n", (unsigned long)a->a_type, (unsigned long)a->a_un.a_val);
			break;
		default:
			printf("auxv %lu\n", (unsigned long)a->a_type);
		}
	}
	printf("page size %s\n", found_pagesz && getauxval(AT_PAGESZ) ? "found" : "MISSING");
	names("environ", environ);
	names("envp", envp);
	return 0;
}

/* host_probe_test - `host` has a by_probe rule on exactly when this
 * kernel shows it, judged here another way than the probe does (smaps
 * VmFlags instead of a merge after mremap), and the release profiles never
 * probe (they take the rule by release). */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "tests/tap.h"
#include "replay/sim/sim.h"

#define PG 4096ul

/* whether the VMA holding addr shows VM_ACCOUNT ("ac") in smaps; -1 unknown */
static int accounted(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	int in = 0, r = -1;
	unsigned long a = (unsigned long)addr;

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		unsigned long lo, hi;
		if (line[strspn(line, "0123456789abcdef")] == '-' && sscanf(line, "%lx-%lx", &lo, &hi) == 2)
			in = lo <= a && a < hi;
		else if (in && strncmp(line, "VmFlags:", 8) == 0)
			r = strstr(line, " ac") != NULL;
	}
	fclose(f);
	return r;
}

/* Z1: populated read-only, made writable (charged), then read-only again:
 * mprotect uncharges only a VMA without an anon_vma (A1). */
static int zero_page_populate(void)
{
	char *r = mmap(NULL, 3 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int ac = -1;

	if (r == MAP_FAILED)
		return -1;
	if (mmap(r + PG, PG, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_POPULATE, -1, 0) != MAP_FAILED &&
	    mprotect(r + PG, PG, PROT_READ | PROT_WRITE) == 0 && mprotect(r + PG, PG, PROT_READ) == 0)
		ac = accounted(r + PG);
	munmap(r, 3 * PG);
	return ac < 0 ? -1 : !ac;
}

int main(void)
{
	static const char *versions[] = { "6.1", "6.6", "6.8", "6.12", "6.13", "6.16", "6.18" };
	const struct sim_profile *host = sim_profile_find("host");
	int z1 = zero_page_populate();

	ok(host != NULL, "host has a profile");
	if (z1 < 0)
		diag("could not observe Z1 here (smaps)");
	else
		is_str(sim_profile_probed(host), z1 ? "Z1" : "",
		       "host: Z1 %s, as a populated read-only page made rw then r-- %s VM_ACCOUNT",
		       z1 ? "on" : "off", z1 ? "loses" : "keeps");
	ok(sim_profile_find("host") == host, "host is decided once per process");
	for (size_t i = 0; i < sizeof versions / sizeof versions[0]; i++)
		is_str(sim_profile_probed(sim_profile_find(versions[i])), "", "%s does not probe", versions[i]);
	return done_testing();
}

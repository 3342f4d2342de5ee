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

/* the end of the VMA holding addr in /proc/self/maps, 0 if none */
static unsigned long vma_end(const void *addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	unsigned long a = (unsigned long)addr, end = 0, lo, hi;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && lo <= a && a < hi)
			end = hi;
	if (f)
		fclose(f);
	return end;
}

/* D1: an unfaulted page kept by MREMAP_DONTUNMAP and copied to the page
 * just above it (the probe copies it below) stays apart from its copy */
static int dontunmap_apart(void)
{
	char *r = mmap(NULL, 4 * PG, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	unsigned long end = 0;

	if (r == MAP_FAILED)
		return -1;
	if (mmap(r + PG, PG, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) != MAP_FAILED &&
	    mremap(r + PG, PG, PG, MREMAP_MAYMOVE | MREMAP_FIXED | 4 /* MREMAP_DONTUNMAP */, r + 2 * PG) != MAP_FAILED)
		end = vma_end(r + PG);
	munmap(r, 4 * PG);
	return !end ? -1 : end == (unsigned long)(r + 2 * PG);
}

static int has_tag(const char *tags, const char *tag)
{
	size_t n = strlen(tag);
	for (const char *p = tags; (p = strstr(p, tag)); p += n)
		if ((p == tags || p[-1] == ',') && (p[n] == 0 || p[n] == ','))
			return 1;
	return 0;
}

int main(void)
{
	const struct sim_profile *host = sim_profile_find("host");
	int z1 = zero_page_populate(), d1 = dontunmap_apart();

	ok(host != NULL, "host has a profile");
	if (z1 < 0)
		diag("could not observe Z1 here (smaps)");
	else
		is_int(has_tag(sim_profile_probed(host), "Z1"), z1,
		       "host: Z1 %s, as a populated read-only page made rw then r-- %s VM_ACCOUNT",
		       z1 ? "on" : "off", z1 ? "loses" : "keeps");
	if (d1 < 0)
		diag("could not observe D1 here (mremap with MREMAP_DONTUNMAP)");
	else
		is_int(has_tag(sim_profile_probed(host), "D1"), d1,
		       "host: D1 %s, as an unfaulted page kept by MREMAP_DONTUNMAP %s its copy above it",
		       d1 ? "on" : "off", d1 ? "stays apart from" : "merges with");
	is_int(strlen(sim_profile_probed(host)) == 0, !z1 && !d1, "host names no other probed rule");
	ok(sim_profile_find("host") == host, "host is decided once per process");
	for (size_t i = 0; i < sim_profile_count(); i++)
		is_str(sim_profile_probed(sim_profile_at(i)), "", "%s does not probe", sim_profile_name(sim_profile_at(i)));
	return done_testing();
}

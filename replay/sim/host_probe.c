/* host_probe.c - which by_probe rules (profiles.c) the running kernel
 * shows, seen from a few calls in a scratch reservation of this process,
 * which is unmapped again.  Builds of the same release differ here. */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "replay/sim/sim_int.h"
#include "lib/compat.h"

/* The end of the VMA holding addr in /proc/self/maps, 0 if none.  No
 * allocation: a mapping made now could land in the scratch range. */
static uint64_t vma_end_at(uint64_t addr)
{
	char buf[4096];
	size_t have = 0;
	uint64_t found = 0;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	for (;;) {
		ssize_t k = read(fd, buf + have, sizeof buf - 1 - have);
		char *line = buf, *nl;

		if (k <= 0)
			break;
		have += (size_t)k;
		buf[have] = 0;
		while ((nl = strchr(line, '\n'))) {
			char *p = line;
			uint64_t lo = 0, hi = 0;

			for (; *p && *p != '-'; p++)
				lo = lo * 16 + (uint64_t)(*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
			for (p++; *p && *p != ' '; p++)
				hi = hi * 16 + (uint64_t)(*p <= '9' ? *p - '0' : (*p | 0x20) - 'a' + 10);
			if (lo <= addr && addr < hi)
				found = hi;
			line = nl + 1;
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
		if (found || have == sizeof buf - 1)
			break;
	}
	close(fd);
	return found;
}

/* Z1: a page populated read-only (MAP_POPULATE) is moved by mremap next to
 * an unfaulted read-only page.  Without an anon_vma copy_vma gives it the
 * pgoff of its new address and it merges; with one it keeps its pgoff and
 * stays apart.  PROT_NONE guards on both sides keep other VMAs out. */
static int probe_zero_page_populate(void)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	const int anon = MAP_PRIVATE | MAP_ANONYMOUS;
	char *r = mmap(NULL, 5 * pg, PROT_NONE, anon | MAP_NORESERVE, -1, 0);
	uint64_t end = 0;

	if (r == MAP_FAILED)
		return 0;
	if (mmap(r + pg, pg, PROT_READ, anon | MAP_FIXED | MAP_POPULATE, -1, 0) != MAP_FAILED &&
	    mmap(r + 3 * pg, pg, PROT_READ, anon | MAP_FIXED, -1, 0) != MAP_FAILED &&
	    mremap(r + pg, pg, pg, MREMAP_MAYMOVE | MREMAP_FIXED, r + 2 * pg) != MAP_FAILED)
		end = vma_end_at((uint64_t)(uintptr_t)(r + 2 * pg));
	munmap(r, 5 * pg);
	return end == (uint64_t)(uintptr_t)(r + 4 * pg);
}

/* D1: an unfaulted page is moved with MREMAP_DONTUNMAP to the page just
 * below it.  A kernel without D1 merges the copy with its own source (one
 * VMA over both pages); with D1 they stay apart.  The PROT_NONE ends of
 * the reservation never merge with either. */
static int probe_dontunmap_apart(void)
{
	const size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	const int anon = MAP_PRIVATE | MAP_ANONYMOUS;
	char *r = mmap(NULL, 4 * pg, PROT_NONE, anon | MAP_NORESERVE, -1, 0);
	uint64_t end = 0;

	if (r == MAP_FAILED)
		return 0;
	if (mmap(r + 2 * pg, pg, PROT_READ | PROT_WRITE, anon | MAP_FIXED, -1, 0) != MAP_FAILED &&
	    mremap(r + 2 * pg, pg, pg, MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP, r + pg) != MAP_FAILED)
		end = vma_end_at((uint64_t)(uintptr_t)(r + pg));
	munmap(r, 4 * pg);
	return end == (uint64_t)(uintptr_t)(r + 2 * pg);
}

uint32_t sim_host_probe(void)
{
	uint32_t rules = 0;

	if (probe_zero_page_populate())
		rules |= 1u << R_Z1_RO_POPULATE;
	if (probe_dontunmap_apart())
		rules |= 1u << R_D1_DONTUNMAP_APART;
	return rules;
}

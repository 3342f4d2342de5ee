/* Print vmt_host_probe's view of this machine as key=value lines. */
#include <stdio.h>
#include "vmt.h"

int main(void)
{
	struct vmt_host h;
	vmt_host_probe(&h);
	printf("kernel=%s\nmachine=%s\ncpu=%s\nglibc=%s\n", h.kernel, h.machine, h.cpu, h.glibc);
	printf("thp_enabled=%s\nthp_defrag=%s\n", h.thp_enabled, h.thp_defrag);
	printf("page_size=%u\ncores=%u\nmemory_kb=%llu\n", h.page_size, h.cores,
	       (unsigned long long)(h.memory_bytes / 1024));
	printf("hpage_pmd_size=%llu\nmax_map_count=%llu\nmmap_min_addr=%llu\n",
	       (unsigned long long)h.hpage_pmd_size, (unsigned long long)h.max_map_count,
	       (unsigned long long)h.mmap_min_addr);
	return 0;
}

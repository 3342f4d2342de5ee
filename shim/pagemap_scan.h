/* pagemap_scan.h - the PAGEMAP_SCAN ioctl of <linux/fs.h> (Linux 6.7),
 * which Debian 12's headers predate: the residency question both
 * recorders ask (libvmrec on /proc/self/pagemap, the launcher on the
 * tracee's). */
#ifndef VMREC_SHIM_PAGEMAP_SCAN_H
#define VMREC_SHIM_PAGEMAP_SCAN_H

#include <stdint.h>
#include <sys/ioctl.h>

struct pm_region { uint64_t start, end, categories; };
struct pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};
#define PM_SCAN _IOWR('f', 16, struct pm_scan_arg)
#define PM_PRESENT (1u << 3)
#define PM_SWAPPED (1u << 4)

#endif

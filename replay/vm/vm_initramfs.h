/* vm_initramfs.h - the guest's root file system: our /init, the static
 * replayer and the traces, one job per trace (see guest/vminit.c). */
#ifndef VMREC_VM_INITRAMFS_H
#define VMREC_VM_INITRAMFS_H

#include <stddef.h>

struct vm_image {
	const char *init;        /* static vminit */
	const char *replayer;    /* static program run by every job */
	int nopts;               /* options given to the replayer ... */
	char **opts;
	int ntraces;             /* ... with each trace, one job per trace */
	char **traces;
	int json;                /* add --json /out/<i>/results.json */
};

/* Write the cpio archive to path.  0, or -1 with a reason in err. */
int vm_initramfs_write(const struct vm_image *img, const char *path,
                       char *err, size_t errlen);

#endif

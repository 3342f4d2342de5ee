/* vm_qemu.h - boot one kernel with an initramfs under qemu-system-x86_64
 * (TCG: no KVM needed) and wait for it to power off. */
#ifndef VMREC_VM_QEMU_H
#define VMREC_VM_QEMU_H

#include <stddef.h>

struct vm_boot {
	const char *kernel;      /* vmlinuz */
	const char *initrd;      /* newc cpio */
	const char *console;     /* file for ttyS0: kernel log and init messages */
	const char *results;     /* file for ttyS1: the framed results */
	const char *qemu_log;    /* qemu's own stderr */
	const char *memory;      /* -m, e.g. "1G" */
	const char *thp;         /* transparent_hugepage= for the guest, or NULL */
	unsigned timeout_s;      /* kill the guest after this long */
};

/* 0 when qemu exited by itself; -1 with a one-line reason in err when it
 * could not start or was killed at the timeout. */
int vm_boot_run(const struct vm_boot *b, char *err, size_t errlen);

#endif

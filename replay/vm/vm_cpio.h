/* vm_cpio.h - write an initramfs: the "newc" cpio format the kernel unpacks
 * (see the kernel's Documentation/driver-api/early-userspace/buffer-format.rst). */
#ifndef VMREC_VM_CPIO_H
#define VMREC_VM_CPIO_H

#include <stdio.h>
#include <sys/types.h>

struct vm_cpio {
	FILE *out;
	unsigned ino;
	int failed;
};

void vm_cpio_begin(struct vm_cpio *c, FILE *out);
void vm_cpio_dir(struct vm_cpio *c, const char *name, mode_t perm);
void vm_cpio_chardev(struct vm_cpio *c, const char *name, unsigned major,
                     unsigned minor);
void vm_cpio_data(struct vm_cpio *c, const char *name, mode_t perm,
                  const void *data, size_t len);
/* Copy the file at path into the archive as name.  -1 (errno set) if it
 * cannot be read. */
int vm_cpio_file(struct vm_cpio *c, const char *name, mode_t perm,
                 const char *path);
/* Write the trailer.  0, or -1 if any write failed. */
int vm_cpio_end(struct vm_cpio *c);

#endif

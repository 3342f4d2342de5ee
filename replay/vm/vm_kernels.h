/* vm_kernels.h - where the guest kernels are: a path, or a release looked up
 * in the kernel store (build/kernels/<release>/vmlinuz, filled by
 * vmrec-kernels or `make kernels`). */
#ifndef VMREC_VM_KERNELS_H
#define VMREC_VM_KERNELS_H

#include <stddef.h>

/* The directory this program was run from (for its helper programs). */
const char *vm_exe_dir(void);

/* $VMREC_KERNELS, else kernels/ beside the exe dir (build/kernels,
 * PREFIX/kernels): the store vmrec-kernels fills. */
const char *vm_kernel_store(void);

/* KERNEL spec -> path of a vmlinuz: a path (anything with a '/', or an
 * existing file), an exact release in the store, or a prefix such as "6.1"
 * which picks the newest release "6.1.*"/"6.1-*" there.  0, or -1 with a
 * one-line reason in err. */
int vm_kernel_resolve(const char *spec, char *path, size_t len, char *err,
                      size_t errlen);

#endif

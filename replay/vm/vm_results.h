/* vm_results.h - what comes back from a guest, made into results files. */
#ifndef VMREC_VM_RESULTS_H
#define VMREC_VM_RESULTS_H

#include <stdio.h>

/* Write the results JSON `json` (len bytes) to f with "vm": "qemu-tcg" and
 * "vm_kernel": release added as the first members of the top-level object,
 * so reports know its timings are not comparable; the guest's members
 * follow as they came.  -1 if json is not one JSON object, or one that
 * has "vm" or "vm_kernel" already. */
int vm_results_write(FILE *f, const char *json, size_t len, const char *release);

/* The file results go to: out itself for a single run, else out with
 * "-<release>" (and "-<trace index>" with several traces) inserted before a
 * trailing ".json".  Returns a malloc'd string. */
char *vm_results_name(const char *out, const char *release, int trace,
                      int many_kernels, int many_traces);

#endif
